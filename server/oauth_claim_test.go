package server

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// oauthNeedsTwoApprovers makes every oauth activity wait for a second
// approver, so that tokens sit in pending intents that every member reads.
func oauthNeedsTwoApprovers(e *testEnv) {
	e.addPolicy("oauth needs a second approver", api.EffectAllow, "activity.type == 'ACTIVITY_TYPE_OAUTH'", "approvers.count() >= 2")
}

// alice's sign-in waits for approval; operator copies her token and her
// target key from the intent into his own oauth activity, with
// invalidateExisting. Were it accepted and approved first, it would delete
// alice's OAuth keys and use up her token. It is refused at submission, naming
// alice's activity, and alice's own sign-in still completes.
func TestOauthTokenSeenInAPendingIntentCannotRevokeTheOwnersKeys(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	oauthNeedsTwoApprovers(e)

	_, t1 := newTarget(t)
	first, err := e.clients["alice"].OAuth(ctx, api.OauthParams{OidcToken: e.mintToken("alice-sub", t1), TargetPublicKey: t1})
	if err != nil {
		t.Fatal(err)
	}
	mustComplete(t)(e.clients["bob"].ApproveActivity(ctx, first.Fingerprint))
	before := e.oauthKeysOf(e.user("alice"))
	if len(before) != 1 {
		t.Fatalf("alice has %d OAuth keys, want 1", len(before))
	}

	_, t2 := newTarget(t)
	pending, err := e.clients["alice"].OAuth(ctx, api.OauthParams{OidcToken: e.mintToken("alice-sub", t2), TargetPublicKey: t2})
	if err != nil || pending.Status != api.StatusConsensusNeeded {
		t.Fatalf("alice's second sign-in: %v %+v", err, pending)
	}
	seen, err := e.clients["operator"].GetActivity(ctx, pending.ID)
	if err != nil {
		t.Fatal(err)
	}
	// An approver reads whose account the activity touches.
	users, err := e.clients["operator"].ListUsers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Join(api.IntentLinesWithUsers(seen.Intent, users), "\n")
	if !strings.Contains(lines, api.Quote("alice-sub")) || !strings.Contains(lines, api.NameWithID("alice", e.user("alice"))) {
		t.Errorf("the approver's lines do not say the token names alice:\n%s", lines)
	}
	yes := true
	replay := e.body(api.TypeOauth, api.OauthParams{OidcToken: seen.Intent.OauthIntent.OidcToken, TargetPublicKey: t2,
		APIKeyName: "operator's sign-in", ExpirationSeconds: "1", InvalidateExisting: &yes}, nil)
	r := e.post(e.submitPath("oauth"), replay, e.keys["operator"])
	wantError(t, r, 401, api.CodeUnauthenticated, "INVALID_OIDC_TOKEN")
	if !strings.Contains(r.err.Message, pending.ID) || !strings.Contains(r.err.Message, "waits for approval") {
		t.Errorf("the refusal does not name the activity holding the token (%s): %s", pending.ID, r.err.Message)
	}

	mustComplete(t)(e.clients["bob"].ApproveActivity(ctx, pending.Fingerprint))
	after := e.oauthKeysOf(e.user("alice"))
	if len(after) != 2 || !strings.Contains(strings.Join(after, ","), before[0]) {
		t.Fatalf("alice's OAuth keys: %v before, %v after her second sign-in; want her first kept and one more", before, after)
	}
}

// A token is claimed once, by the first activity to carry it: the same body
// resent (a retry after a lost reply) is answered with that activity; any
// other body with the token is refused before an activity exists, whoever
// sends it and whatever the holder's status.
func TestOauthTokenIsClaimedAtSubmission(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	oauthNeedsTwoApprovers(e)
	_, target := newTarget(t)
	token := e.mintToken("alice-sub", target)
	body := e.body(api.TypeOauth, api.OauthParams{OidcToken: token, TargetPublicKey: target, APIKeyName: "one"}, nil)
	first := e.post(e.submitPath("oauth"), body, e.keys["alice"])
	if first.status != 200 || first.act.Status != api.StatusConsensusNeeded {
		t.Fatalf("first submission: HTTP %d %s", first.status, first.body)
	}
	if again := e.post(e.submitPath("oauth"), body, e.keys["alice"]); again.status != 200 || again.act.ID != first.act.ID {
		t.Fatalf("the same body resent: HTTP %d %s, want activity %s", again.status, again.body, first.act.ID)
	}

	other := func(name string) reply {
		return e.post(e.submitPath("oauth"), e.body(api.TypeOauth, api.OauthParams{OidcToken: token, TargetPublicKey: target, APIKeyName: "two"}, nil), e.keys[name])
	}
	for _, who := range []string{"alice", "operator"} {
		r := other(who)
		wantError(t, r, 401, api.CodeUnauthenticated, "INVALID_OIDC_TOKEN")
		if !strings.Contains(r.err.Message, first.act.ID) {
			t.Errorf("%s's other body: the refusal does not name activity %s: %s", who, first.act.ID, r.err.Message)
		}
	}
	acts, err := e.clients["alice"].ListActivities(ctx, api.ListActivitiesOptions{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, a := range acts {
		if a.Type == api.TypeOauth {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%d oauth activities exist, want only the first: a refused submission must leave none", n)
	}

	// Rejected, the activity keeps the token: an OIDC token is used once.
	// (Every other member rejects, until consensus is out of reach.)
	var rejected *api.Activity
	for _, who := range []string{"bob", "carol", "operator"} {
		if rejected, err = e.clients[who].RejectActivity(ctx, first.act.Fingerprint); err != nil {
			t.Fatal(err)
		}
		if rejected.Status == api.StatusRejected {
			break
		}
	}
	if rejected.Status != api.StatusRejected {
		t.Fatalf("every other member rejected; status %s, want REJECTED", rejected.Status)
	}
	r := other("alice")
	wantError(t, r, 401, api.CodeUnauthenticated, "INVALID_OIDC_TOKEN")
	if !strings.Contains(r.err.Message, rejected.ID) || !strings.Contains(r.err.Message, api.StatusRejected) {
		t.Errorf("after rejection: %s", r.err.Message)
	}
}

// The execution-time check stays as a second line: two activities that
// carry one token without a claim (as submitted before tokens were claimed
// at submission) exchange it once; the other FAILS.
func TestOauthUnclaimedTokenPendingTwiceExchangesOnce(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	_, target := newTarget(t)
	token := e.mintToken("carol-sub", target)
	forgetClaims := func() {
		if err := e.srv.db.inTx(ctx, func(tx *txn) error {
			_, err := tx.ExecContext(ctx, `DELETE FROM oidc_exchanged_tokens`)
			return err
		}); err != nil {
			t.Fatal(err)
		}
	}
	one, err := e.clients["alice"].OAuth(ctx, api.OauthParams{OidcToken: token, TargetPublicKey: target, APIKeyName: "one"})
	if err != nil {
		t.Fatal(err)
	}
	forgetClaims()
	two, err := e.clients["alice"].OAuth(ctx, api.OauthParams{OidcToken: token, TargetPublicKey: target, APIKeyName: "two"})
	if err != nil {
		t.Fatal(err)
	}
	forgetClaims()
	if one.Status != api.StatusConsensusNeeded || two.Status != api.StatusConsensusNeeded {
		t.Fatalf("statuses %s %s, want both waiting for approval", one.Status, two.Status)
	}
	mustComplete(t)(e.clients["bob"].ApproveActivity(ctx, one.Fingerprint))
	mustFail(t, "already been exchanged")(e.clients["bob"].ApproveActivity(ctx, two.Fingerprint))
}

// Submissions racing with one token, each past the precheck before any
// claims it, still leave one activity holding it: the claim is made in the
// write transaction.
func TestOauthTokenRacingSubmissionsClaimItOnce(t *testing.T) {
	e := newEnv(t)
	oauthNeedsTwoApprovers(e)
	_, target := newTarget(t)
	token := e.mintToken("alice-sub", target)
	const n = 8
	errs := make(chan error, n)
	for i := range n {
		p := api.OauthParams{OidcToken: token, TargetPublicKey: target, APIKeyName: fmt.Sprintf("racer %d", i)}
		go func() {
			_, err := e.clients["alice"].OAuth(ctxT(t), p)
			errs <- err
		}()
	}
	accepted := 0
	for range n {
		err := <-errs
		var ae *api.Error
		switch {
		case err == nil:
			accepted++
		case !errors.As(err, &ae) || ae.Code != api.CodeUnauthenticated || !strings.Contains(ae.Message, "already carried by activity"):
			t.Errorf("a racing submission: %v", err)
		}
	}
	if accepted != 1 {
		t.Fatalf("%d racing submissions with one token were accepted, want 1", accepted)
	}
}
