package server

import (
	"context"
	"crypto/ecdh"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
)

func TestQuorumFlowTwoOfThree(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	act, err := e.clients["alice"].CreatePolicy(ctx, api.CreatePolicyParams{PolicyName: "allow tags", Effect: api.EffectAllow,
		Condition: "activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG'", Notes: "n"})
	if err != nil {
		t.Fatal(err)
	}
	if act.Status != api.StatusConsensusNeeded {
		t.Fatalf("status = %s, want CONSENSUS_NEEDED", act.Status)
	}
	if act.CanApprove || act.CanReject {
		t.Fatal("the requester can still vote on her own activity")
	}
	if len(act.Votes) != 1 || act.Votes[0].UserID != e.user("alice") || act.Votes[0].Selection != api.VoteApproved {
		t.Fatalf("votes = %+v, want alice's approval", act.Votes)
	}
	seen, err := e.clients["bob"].GetActivity(ctx, act.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !seen.CanApprove || !seen.CanReject {
		t.Fatal("bob cannot vote on alice's pending activity")
	}
	if pols, _ := e.clients["bob"].ListPolicies(ctx); len(pols) != 0 {
		t.Fatalf("policy exists before approval: %+v", pols)
	}
	done, err := e.clients["bob"].ApproveActivity(ctx, act.Fingerprint)
	if err != nil {
		t.Fatal(err)
	}
	if done.ID != act.ID || done.Status != api.StatusCompleted {
		t.Fatalf("after bob's approval: %s %s, want %s COMPLETED", done.ID, done.Status, act.ID)
	}
	if v := done.Votes[1]; v.UserID != e.user("bob") || v.User.UserName != "bob" || v.PublicKey != e.keys["bob"].PublicKeyHex() || v.Signature == "" || v.CreatedAt.IsZero() {
		t.Fatalf("bob's vote record: %+v", v)
	}
	if done.CanApprove || done.Result.CreatePolicyResult == nil {
		t.Fatalf("completed activity: canApprove %v result %+v", done.CanApprove, done.Result)
	}
	pol, err := e.clients["carol"].GetPolicy(ctx, done.Result.CreatePolicyResult.PolicyID)
	if err != nil {
		t.Fatal(err)
	}
	if pol.PolicyName != "allow tags" || pol.Effect != api.EffectAllow {
		t.Fatalf("policy = %+v", pol)
	}
	evals, err := e.clients["carol"].GetPolicyEvaluations(ctx, act.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(evals) != 2 || evals[0].VoteID != done.Votes[0].ID || evals[1].VoteID != done.Votes[1].ID {
		t.Fatalf("evaluations = %+v, want one per vote", evals)
	}
	// Voting again, or on a finished activity.
	_, err = e.later("bob").ApproveActivity(ctx, act.Fingerprint)
	if !errors.Is(err, api.ErrAlreadyExists) {
		t.Fatalf("second vote by bob: %v, want already exists", err)
	}
	_, err = e.clients["carol"].ApproveActivity(ctx, act.Fingerprint)
	var ae *api.Error
	if !errors.As(err, &ae) || ae.StatusCode != 400 || ae.Code != api.CodeFailedPrecondition {
		t.Fatalf("vote on a completed activity: %v, want 400 FailedPrecondition", err)
	}
}

func TestRequesterCannotApproveTwice(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	act, err := e.clients["alice"].CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "x", UserIDs: []string{e.user("bob")}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.clients["alice"].ApproveActivity(ctx, act.Fingerprint); !errors.Is(err, api.ErrAlreadyExists) {
		t.Fatalf("requester approving again: %v, want already exists", err)
	}
}

func TestRejectionMakesConsensusUnreachable(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	act, err := e.clients["alice"].CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "x", UserIDs: []string{e.user("bob")}})
	if err != nil {
		t.Fatal(err)
	}
	after, err := e.clients["bob"].RejectActivity(ctx, act.Fingerprint)
	if err != nil {
		t.Fatal(err)
	}
	if after.Status != api.StatusConsensusNeeded {
		t.Fatalf("after one rejection: %s, want still CONSENSUS_NEEDED (carol can approve)", after.Status)
	}
	after, err = e.clients["carol"].RejectActivity(ctx, act.Fingerprint)
	if err != nil {
		t.Fatal(err)
	}
	if after.Status != api.StatusRejected {
		t.Fatalf("after two rejections: %s, want REJECTED", after.Status)
	}
	users, _ := e.clients["alice"].ListUsers(ctx)
	for _, u := range users {
		if len(u.UserTags) > 1 || (u.UserName != "bob" && u.UserName != "carol" && u.UserName != "operator" && len(u.UserTags) > 0) {
			t.Fatalf("rejected tag was created: %+v", u)
		}
	}
	evals, _ := e.clients["alice"].GetPolicyEvaluations(ctx, act.ID)
	last := evals[len(evals)-1].PolicyEvaluations
	if len(last) == 0 || last[len(last)-1].Outcome != api.OutcomeRejected {
		t.Fatalf("last evaluation = %+v, want OUTCOME_REJECTED", last)
	}
}

// addPolicy creates a policy through the 2-of-3 quorum (alice submits, bob approves).
func (e *testEnv) addPolicy(name, effect, condition, consensus string) string {
	e.t.Helper()
	ctx := ctxT(e.t)
	act, err := e.clients["alice"].CreatePolicy(ctx, api.CreatePolicyParams{PolicyName: name, Effect: effect, Condition: condition, Consensus: consensus, Notes: "test"})
	if err != nil {
		e.t.Fatal(err)
	}
	done, err := e.clients["bob"].ApproveActivity(ctx, act.Fingerprint)
	if err != nil || done.Status != api.StatusCompleted {
		e.t.Fatalf("policy %s: %v %+v", name, err, done)
	}
	return done.Result.CreatePolicyResult.PolicyID
}

func TestDenyOverridesAllow(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	allow := e.addPolicy("allow sessions", api.EffectAllow, "activity.type == 'ACTIVITY_TYPE_CREATE_READ_ONLY_SESSION'", "")
	act, err := e.clients["operator"].CreateReadOnlySession(ctx)
	if err != nil || act.Status != api.StatusCompleted {
		t.Fatalf("allowed activity: %v %+v", err, act)
	}
	deny := e.addPolicy("deny operator sessions", api.EffectDeny, "activity.type == 'ACTIVITY_TYPE_CREATE_READ_ONLY_SESSION'",
		"approvers.any(user, user.id == '"+e.user("operator")+"')")
	act, err = e.later("operator").CreateReadOnlySession(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if act.Status != api.StatusFailed || act.Failure == nil || act.Result.CreateReadOnlySessionResult != nil {
		t.Fatalf("denied activity: %+v", act)
	}
	evals, _ := e.clients["operator"].GetPolicyEvaluations(ctx, act.ID)
	got := map[string]string{}
	for _, o := range evals[0].PolicyEvaluations {
		got[o.PolicyID] = o.Outcome
	}
	if got[allow] != api.OutcomeAllow || got[deny] != api.OutcomeDenyExplicit {
		t.Fatalf("outcomes = %v", got)
	}
	// Nobody allows it: implicit deny.
	act, err = e.clients["operator"].CreateInvitations(ctx, api.CreateInvitationsParams{Invitations: []api.Invitation{{
		ReceiverUserName: "d", ReceiverUserEmail: "d@example.com", AccessType: api.AccessTypeAll, SenderUserID: e.user("operator")}}})
	if err != nil || act.Status != api.StatusFailed {
		t.Fatalf("unallowed activity: %v %+v", err, act)
	}
}

func TestOperatorPolicyNeedsTwoTaggedApprovers(t *testing.T) {
	e := newEnvWith(t, envOptions{threshold: 2, extra: map[string][]string{"dave": {"ops"}, "erin": {"ops"}, "frank": nil}})
	ctx := ctxT(t)
	e.addPolicy("ops approve invitations", api.EffectAllow, "activity.type == 'ACTIVITY_TYPE_CREATE_INVITATIONS'",
		"approvers.filter(user, user.tags.contains('"+e.org.TagIDs["ops"]+"')).count() >= 2")
	invite := func(name string) *api.Activity {
		act, err := e.clients["operator"].CreateInvitations(ctx, api.CreateInvitationsParams{Invitations: []api.Invitation{{
			ReceiverUserName: name, ReceiverUserEmail: name + "@example.com", AccessType: api.AccessTypeAll, SenderUserID: e.user("operator")}}})
		if err != nil || act.Status != api.StatusConsensusNeeded {
			t.Fatalf("operator's activity: %v %+v", err, act)
		}
		return act
	}
	act := invite("x")
	// frank has no ops tag: his approval changes nothing.
	after, err := e.clients["frank"].ApproveActivity(ctx, act.Fingerprint)
	if err != nil || after.Status != api.StatusConsensusNeeded {
		t.Fatalf("after frank: %v %+v", err, after)
	}
	after, err = e.clients["dave"].ApproveActivity(ctx, act.Fingerprint)
	if err != nil || after.Status != api.StatusConsensusNeeded {
		t.Fatalf("after one ops approver: %v %+v", err, after)
	}
	evals, _ := e.clients["dave"].GetPolicyEvaluations(ctx, act.ID)
	if o := evals[len(evals)-1].PolicyEvaluations; len(o) != 1 || o[0].Outcome != api.OutcomeRequiresConsensus {
		t.Fatalf("evaluation after one ops approver: %+v", o)
	}
	after, err = e.clients["erin"].ApproveActivity(ctx, act.Fingerprint)
	if err != nil || after.Status != api.StatusCompleted || len(after.Result.CreateInvitationsResult.InvitationIDs) != 1 {
		t.Fatalf("after two ops approvers: %v %+v", err, after)
	}
	evals, _ = e.clients["dave"].GetPolicyEvaluations(ctx, act.ID)
	if o := evals[len(evals)-1].PolicyEvaluations; len(o) != 1 || o[0].Outcome != api.OutcomeAllow {
		t.Fatalf("final evaluation: %+v", o)
	}

	// The root quorum bypasses policies: alice and bob complete it without ops.
	act = invite("y")
	e.clients["alice"].ApproveActivity(ctx, act.Fingerprint)
	after, err = e.clients["bob"].ApproveActivity(ctx, act.Fingerprint)
	if err != nil || after.Status != api.StatusCompleted {
		t.Fatalf("after the root quorum: %v %+v", err, after)
	}
}

func TestSetOrganizationFeatureIsRootOnly(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	e.addPolicy("allow everything", api.EffectAllow, "true", "")
	act, err := e.clients["operator"].SetOrganizationFeature(ctx, api.SetOrganizationFeatureParams{Name: api.FeatureEmailAuth, Value: "on"})
	if err != nil || act.Status != api.StatusFailed {
		t.Fatalf("operator setting a feature despite an allow-all policy: %v %+v", err, act)
	}
	// (A different value: the same body in the same millisecond would be the
	// same activity.)
	act, err = e.clients["alice"].SetOrganizationFeature(ctx, api.SetOrganizationFeatureParams{Name: api.FeatureEmailAuth, Value: "enabled"})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("root member setting a feature: %v %+v", err, act)
	}
	seen, _ := e.clients["operator"].GetActivity(ctx, act.ID)
	if seen.CanApprove {
		t.Fatal("a non-root user may vote on a root-only activity")
	}
	if _, err := e.clients["operator"].ApproveActivity(ctx, act.Fingerprint); !errors.Is(err, api.ErrPermissionDenied) {
		t.Fatalf("operator voting on root-only activity: %v", err)
	}
	done, err := e.clients["carol"].ApproveActivity(ctx, act.Fingerprint)
	if err != nil || done.Status != api.StatusCompleted {
		t.Fatalf("%v %+v", err, done)
	}
	want := api.Feature{Name: api.FeatureEmailAuth, Value: "enabled"}
	if !slices.Contains(done.Result.SetOrganizationFeatureResult.Features, want) {
		t.Fatalf("result features = %+v", done.Result.SetOrganizationFeatureResult.Features)
	}
	cfg, _ := e.clients["bob"].GetOrganizationConfigs(ctx)
	if !slices.Contains(cfg.Features, want) || cfg.Quorum.Threshold != 2 || len(cfg.Quorum.UserIDs) != 3 {
		t.Fatalf("configs = %+v", cfg)
	}
}

func TestIdempotentResubmission(t *testing.T) {
	e := newEnv(t)
	body := e.body(api.TypeCreateUserTag, api.CreateUserTagParams{UserTagName: "t", UserIDs: []string{e.user("carol")}}, nil)
	first := e.post(e.submitPath("create_user_tag"), body, e.keys["alice"])
	again := e.post(e.submitPath("create_user_tag"), body, e.keys["alice"])
	if first.status != 200 || again.status != 200 {
		t.Fatalf("statuses %d %d: %s", first.status, again.status, again.body)
	}
	if again.act.ID != first.act.ID || len(again.act.Votes) != 1 || again.act.Status != api.StatusConsensusNeeded {
		t.Fatalf("replay by the requester: %+v, want the same activity unchanged", again.act)
	}
	if first.act.Fingerprint != fingerprintSHA256(body) {
		t.Fatalf("fingerprint = %s", first.act.Fingerprint)
	}
	// By a member who may not vote, it is refused as their approve_activity
	// would be, not answered 200 with nothing done.
	byOperator := e.post(e.submitPath("create_user_tag"), body, e.keys["operator"])
	wantError(t, byOperator, 403, api.CodePermissionDenied, "NOT_A_VOTER")
	byBob := e.post(e.submitPath("create_user_tag"), body, e.keys["bob"])
	if byBob.status != 200 || byBob.act.ID != first.act.ID || byBob.act.Status != api.StatusCompleted || len(byBob.act.Votes) != 2 {
		t.Fatalf("same body by bob: %d %+v, want bob's approval completing it", byBob.status, byBob.act)
	}
	acts, _ := e.clients["alice"].ListActivities(ctxT(t), api.ListActivitiesOptions{})
	if len(acts) != 1 {
		t.Fatalf("%d activities, want 1", len(acts))
	}
}

func TestReplayedVoteIsIdempotent(t *testing.T) {
	e := newEnvWith(t, envOptions{threshold: 3})
	ctx := ctxT(t)
	act, err := e.clients["alice"].CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "r", UserIDs: []string{e.user("bob")}})
	if err != nil {
		t.Fatal(err)
	}
	vote := e.body(api.TypeApproveActivity, api.ApproveActivityParams{Fingerprint: act.Fingerprint}, nil)
	first := e.post(e.submitPath("approve_activity"), vote, e.keys["bob"])
	again := e.post(e.submitPath("approve_activity"), vote, e.keys["bob"])
	if first.status != 200 || again.status != 200 || len(again.act.Votes) != 2 || again.act.ID != act.ID {
		t.Fatalf("replayed vote: %d %d %+v", first.status, again.status, again.act.Votes)
	}
	// A new request (new bytes) for a second vote is refused.
	other := e.body(api.TypeApproveActivity, api.ApproveActivityParams{Fingerprint: act.Fingerprint}, map[string]any{"timestampMs": jsonMillis(time.Now().Add(time.Second))})
	wantError(t, e.post(e.submitPath("approve_activity"), other, e.keys["bob"]), 409, api.CodeAlreadyExists, "ALREADY_VOTED")
	wantError(t, e.post(e.submitPath("approve_activity"), e.body(api.TypeApproveActivity, api.ApproveActivityParams{Fingerprint: "sha256:00"}, nil), e.keys["bob"]), 404, api.CodeNotFound, "ACTIVITY_NOT_FOUND")
}

// Voters: root members always; other users only where a matching allow policy
// asks for a consensus (their approval can count there).
func TestWhoMayVote(t *testing.T) {
	e := newEnvWith(t, envOptions{threshold: 2, extra: map[string][]string{"dave": {"ops"}}})
	ctx := ctxT(t)
	act, err := e.clients["alice"].CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "v", UserIDs: []string{e.user("bob")}})
	if err != nil {
		t.Fatal(err)
	}
	seen, _ := e.clients["operator"].GetActivity(ctx, act.ID)
	if seen.CanApprove || seen.CanReject {
		t.Fatal("operator is offered a vote that no policy counts")
	}
	if _, err := e.clients["operator"].ApproveActivity(ctx, act.Fingerprint); !errors.Is(err, api.ErrPermissionDenied) {
		t.Fatalf("operator's vote: %v, want permission denied", err)
	}
	listed, _ := e.clients["carol"].ListActivities(ctx, api.ListActivitiesOptions{})
	if len(listed) != 1 || !listed[0].CanApprove {
		t.Fatalf("carol (root) in the list: %+v", listed)
	}

	e.addPolicy("ops approve tags", api.EffectAllow, "activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG'",
		"approvers.filter(user, user.tags.contains('"+e.org.TagIDs["ops"]+"')).count() >= 2")
	// Now a consensus policy matches user tags: non-root users may vote on them.
	seen, _ = e.clients["dave"].GetActivity(ctx, act.ID)
	if !seen.CanApprove {
		t.Fatal("dave is not offered the vote a matching consensus policy asks for")
	}
	after, err := e.clients["dave"].ApproveActivity(ctx, act.Fingerprint)
	if err != nil || after.CanApprove || len(after.Votes) != 2 {
		t.Fatalf("dave's vote: %v %+v", err, after)
	}
}

// outcomesOf maps each policy to its outcome in the activity's last evaluation.
func outcomesOf(t *testing.T, c *api.Client, activityID string) map[string]string {
	t.Helper()
	evals, err := c.GetPolicyEvaluations(ctxT(t), activityID)
	if err != nil || len(evals) == 0 {
		t.Fatalf("evaluations of %s: %v (%d)", activityID, err, len(evals))
	}
	got := map[string]string{}
	for _, o := range evals[len(evals)-1].PolicyEvaluations {
		got[o.PolicyID] = o.Outcome
	}
	return got
}

// Policies see credentials[].id as the API key that approved (docs/policy-
// language.md): a DENY naming a shared key stops what that key submits, and
// only that key.
func TestDenyNamingAnAPIKeyStopsThatKey(t *testing.T) {
	e := newEnvWith(t, envOptions{threshold: 2, extra: map[string][]string{"dave": {"operator"}}})
	ctx := ctxT(t)
	operator, err := e.clients["alice"].GetUser(ctx, e.user("operator"))
	if err != nil || len(operator.APIKeys) != 1 {
		t.Fatalf("operator: %v %+v", err, operator)
	}
	keyID := operator.APIKeys[0].APIKeyID
	e.addPolicy("sessions", api.EffectAllow, "activity.type == 'ACTIVITY_TYPE_CREATE_READ_ONLY_SESSION'", "")
	deny := e.addPolicy("not with the shared CI key", api.EffectDeny, "activity.type == 'ACTIVITY_TYPE_CREATE_READ_ONLY_SESSION'",
		"credentials.any(c, c.id == '"+keyID+"')")

	act, err := e.clients["operator"].CreateReadOnlySession(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if act.Status != api.StatusFailed {
		t.Errorf("a session submitted with key %s: status %s, want FAILED by the DENY naming that key", keyID, act.Status)
	}
	if got := outcomesOf(t, e.clients["operator"], act.ID)[deny]; got != api.OutcomeDenyExplicit {
		t.Errorf("the DENY naming key %s: %s, want %s", keyID, got, api.OutcomeDenyExplicit)
	}
	// later: its own body, not the failed session's (in one millisecond the two are one activity).
	if act, err := e.later("dave").CreateReadOnlySession(ctx); err != nil || act.Status != api.StatusCompleted {
		t.Errorf("a session submitted with another key: %v, status %v; want COMPLETED", err, act)
	}
}

// A vote cast with a passkey reaches the policies as that passkey: its
// authenticator id, CREDENTIAL_TYPE_WEBAUTHN_AUTHENTICATOR and its WebAuthn
// credential id; a DENY naming the credential id stops it and leaves an API
// key alone.
func TestDenyNamingAPasskeysCredentialIDStopsThatPasskey(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	auth, err := keys.NewSoftAuthenticator("Y3JlZC0x")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.srv.CreateUser(context.Background(), e.org.ID, UserSpec{Name: "pat",
		Authenticators: []AuthenticatorSpec{{Name: "yubikey", CredentialID: auth.CredentialID(), PublicKey: auth.PublicKeyHex()}}}); err != nil {
		t.Fatal(err)
	}
	e.addPolicy("sessions", api.EffectAllow, "activity.type == 'ACTIVITY_TYPE_CREATE_READ_ONLY_SESSION'", "")
	deny := e.addPolicy("not with that passkey", api.EffectDeny, "activity.type == 'ACTIVITY_TYPE_CREATE_READ_ONLY_SESSION'",
		"credentials.any(c, c.id != '' && c.type == '"+api.CredentialWebAuthnAuthenticator+"' && c.credential_id == '"+auth.CredentialID()+"')")

	pat := e.client(auth)
	act, err := pat.CreateReadOnlySession(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if act.Status != api.StatusFailed {
		t.Errorf("a session submitted with the passkey: status %s, want FAILED by the DENY naming its credential id", act.Status)
	}
	if got := outcomesOf(t, pat, act.ID)[deny]; got != api.OutcomeDenyExplicit {
		t.Errorf("the DENY naming the passkey: %s, want %s", got, api.OutcomeDenyExplicit)
	}
	// later: its own body, not the failed session's (in one millisecond the two are one activity).
	if act, err := e.later("operator").CreateReadOnlySession(ctx); err != nil || act.Status != api.StatusCompleted {
		t.Errorf("a session submitted with an API key: %v, status %v; want COMPLETED", err, act)
	}
}

// An OAuth key stamps as P-256 like an API key, but policies see the type it
// is registered with: a DENY on CREDENTIAL_TYPE_OAUTH_KEY_P256 stops it and
// leaves the same user's API key alone.
func TestDenyOnTheOauthKeyTypeStopsOauthKeys(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	oauthKey := e.oauthKeyOf("carol")
	e.addPolicy("sessions", api.EffectAllow, "activity.type == 'ACTIVITY_TYPE_CREATE_READ_ONLY_SESSION'", "")
	deny := e.addPolicy("no OAuth sessions", api.EffectDeny, "activity.type == 'ACTIVITY_TYPE_CREATE_READ_ONLY_SESSION'",
		"credentials.any(c, c.type == '"+api.CredentialOauthKeyP256+"')")

	c := e.client(oauthKey)
	act, err := c.CreateReadOnlySession(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if act.Status != api.StatusFailed {
		t.Errorf("a session submitted with an OAuth key: status %s, want FAILED by the DENY on %s", act.Status, api.CredentialOauthKeyP256)
	}
	if got := outcomesOf(t, c, act.ID)[deny]; got != api.OutcomeDenyExplicit {
		t.Errorf("the DENY on the OAuth key type: %s, want %s", got, api.OutcomeDenyExplicit)
	}
	// later: its own body, not the failed session's (in one millisecond the two are one activity).
	if act, err := e.later("carol").CreateReadOnlySession(ctx); err != nil || act.Status != api.StatusCompleted {
		t.Errorf("a session submitted with carol's API key: %v, status %v; want COMPLETED", err, act)
	}
}

// oauthKeyOf signs name in with the oauth activity (alice submits, bob
// approves) and returns the OAuth key it registers.
func (e *testEnv) oauthKeyOf(name string) *keys.Key {
	e.t.Helper()
	ctx := ctxT(e.t)
	target, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		e.t.Fatal(err)
	}
	targetHex := hex.EncodeToString(target.PublicKey().Bytes())
	act, err := e.clients["alice"].OAuth(ctx, api.OauthParams{OidcToken: e.mintToken(name+"-sub", targetHex), TargetPublicKey: targetHex})
	if err != nil {
		e.t.Fatal(err)
	}
	if act, err = e.clients["bob"].ApproveActivity(ctx, act.Fingerprint); err != nil || act.Status != api.StatusCompleted {
		e.t.Fatalf("oauth for %s: %v %+v", name, err, act)
	}
	priv, err := keys.DecryptCredentialBundle(act.Result.OauthResult.CredentialBundle, target)
	if err != nil {
		e.t.Fatal(err)
	}
	k, err := keys.ParsePrivateHex(keys.SchemeP256, hex.EncodeToString(priv))
	if err != nil {
		e.t.Fatal(err)
	}
	return k
}
