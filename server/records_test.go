package server

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
)

// wantArrays checks that each key is present in the JSON object as an array
// (the official client's types require them, empty or not).
func wantArrays(t *testing.T, what string, obj map[string]json.RawMessage, keys ...string) {
	t.Helper()
	for _, k := range keys {
		raw, ok := obj[k]
		if !ok || len(raw) == 0 || raw[0] != '[' {
			t.Errorf("%s: %q is %s, want an array", what, k, raw)
		}
	}
}

var userArrays = []string{"apiKeys", "authenticators", "userTags", "oauthProviders", "mfaPolicies"}

func TestUserRecordsCarryEveryArrayEverywhere(t *testing.T) {
	e := newEnv(t)
	alice, bob := e.clients["alice"], e.later("bob")
	ctx := ctxT(t)
	// bob gets an MFA policy; operator has none (and no OIDC identity).
	mfa, err := alice.CreateMfaPolicy(ctx, api.CreateMfaPolicyParams{UserID: e.user("bob"), MfaPolicyName: "key", Condition: "true",
		RequiredAuthenticationMethods: []api.AuthenticationStep{{Any: []api.AuthenticationMethod{{Type: api.AuthAPIKey}}}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bob.ApproveActivity(ctx, mfa.Fingerprint); err != nil {
		t.Fatal(err)
	}

	r := e.post(api.QueryPrefix+api.QueryListUsers, []byte(`{"organizationId":"`+e.org.ID+`"}`), e.keys["alice"])
	var list struct{ Users []map[string]json.RawMessage }
	if err := json.Unmarshal(r.body, &list); err != nil || len(list.Users) != 4 {
		t.Fatalf("list_users: %v %s", err, r.body)
	}
	for _, u := range list.Users {
		wantArrays(t, "list_users "+string(u["userName"]), u, userArrays...)
	}

	users, err := alice.ListUsers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]api.User{}
	for _, u := range users {
		byName[u.UserName] = u
	}
	if got := byName["bob"].MfaPolicies; len(got) != 1 || got[0].MfaPolicyName != "key" {
		t.Errorf("bob's mfaPolicies = %+v", got)
	}
	if got := byName["operator"]; len(got.MfaPolicies) != 0 || len(got.OauthProviders) != 1 {
		t.Errorf("operator: mfaPolicies %+v, oauthProviders %+v", got.MfaPolicies, got.OauthProviders)
	}
	p := byName["alice"].OauthProviders
	if len(p) != 1 || p[0].Issuer != LocalOIDCIssuer || p[0].Subject != "alice-sub" || p[0].Audience != e.org.ID || p[0].ProviderID == "" || p[0].CreatedAt.IsZero() {
		t.Errorf("alice's oauthProviders = %+v", p)
	}

	r = e.post(api.QueryPrefix+api.QueryGetUser, []byte(`{"organizationId":"`+e.org.ID+`","userId":"`+e.user("carol")+`"}`), e.keys["alice"])
	var one struct{ User map[string]json.RawMessage }
	if err := json.Unmarshal(r.body, &one); err != nil {
		t.Fatalf("get_user: %v %s", err, r.body)
	}
	wantArrays(t, "get_user", one.User, userArrays...)

	r = e.post(api.QueryPrefix+api.QueryGetActivity, []byte(`{"organizationId":"`+e.org.ID+`","activityId":"`+mfa.ID+`"}`), e.keys["alice"])
	var act struct {
		Activity struct {
			Votes []struct{ User map[string]json.RawMessage }
		}
	}
	if err := json.Unmarshal(r.body, &act); err != nil || len(act.Activity.Votes) != 2 {
		t.Fatalf("get_activity: %v %s", err, r.body)
	}
	for _, v := range act.Activity.Votes {
		wantArrays(t, "vote user", v.User, userArrays...)
	}
}

func TestMfaQueriesUnderTheOfficialNames(t *testing.T) {
	e := newEnv(t)
	alice, bob, carol := e.clients["alice"], e.later("bob"), e.clients["carol"]
	ctx := ctxT(t)
	create := func(user, name, method string, order int) string {
		t.Helper()
		a, err := alice.CreateMfaPolicy(ctx, api.CreateMfaPolicyParams{UserID: e.user(user), MfaPolicyName: name, Condition: "true", Order: order,
			RequiredAuthenticationMethods: []api.AuthenticationStep{{Any: []api.AuthenticationMethod{{Type: method}}}}})
		if err != nil {
			t.Fatal(err)
		}
		done, err := bob.ApproveActivity(ctx, a.Fingerprint)
		if err != nil || done.Status != api.StatusCompleted {
			t.Fatalf("create MFA policy %s: %v %+v", name, err, done)
		}
		return done.Result.CreateMfaPolicyResult.MfaPolicyID
	}
	bobKey := create("bob", "API key", api.AuthAPIKey, 1)
	create("bob", "never applies", api.AuthPasskey, 2)
	carolPasskey := create("carol", "passkey", api.AuthPasskey, 0)

	got, err := carol.GetMfaPolicies(ctx, e.user("bob"))
	if err != nil || len(got) != 2 || got[0].MfaPolicyID != bobKey {
		t.Fatalf("GetMfaPolicies(bob) = %+v, %v", got, err)
	}
	if empty, err := carol.GetMfaPolicies(ctx, e.user("operator")); err != nil || empty == nil || len(empty) != 0 {
		t.Fatalf("GetMfaPolicies(operator) = %#v, %v", empty, err)
	}
	one, err := carol.GetMfaPolicy(ctx, e.user("carol"), carolPasskey)
	if err != nil || one.MfaPolicyName != "passkey" {
		t.Fatalf("GetMfaPolicy = %+v, %v", one, err)
	}
	if _, err := carol.GetMfaPolicy(ctx, e.user("bob"), carolPasskey); !isAPINotFound(err) {
		t.Fatalf("GetMfaPolicy of another user's policy: %v, want not found", err)
	}
	if _, err := carol.GetMfaPolicies(ctx, "no-such-user"); !isAPINotFound(err) {
		t.Fatalf("GetMfaPolicies of an unknown user: %v, want not found", err)
	}

	// alice submits, carol rejects (with an API key, not the passkey her policy
	// asks for), bob approves with his API key: the activity completes.
	act, err := alice.CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "mfa", UserIDs: []string{e.user("operator")}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := carol.RejectActivity(ctx, act.Fingerprint); err != nil {
		t.Fatal(err)
	}
	if _, err := bob.ApproveActivity(ctx, act.Fingerprint); err != nil {
		t.Fatal(err)
	}
	statuses, err := alice.GetMfaStatus(ctx, act.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	byUser := map[string]api.MfaStatus{}
	for _, st := range statuses {
		byUser[st.UserID] = st
	}
	if len(statuses) != 2 {
		t.Fatalf("statuses = %+v, want bob's and carol's (alice has no MFA policy)", statuses)
	}
	bobKeyID := e.apiKeyID(e.user("bob"))
	if st := byUser[e.user("bob")]; st.MfaPolicyID != bobKey || !st.Satisfied || len(st.SatisfiedMethods) != 1 ||
		st.SatisfiedMethods[0] != (api.AuthenticationMethod{Type: api.AuthAPIKey, ID: bobKeyID}) || len(st.RequiredMethods) != 1 {
		t.Errorf("bob's status = %+v", st)
	}
	if st := byUser[e.user("carol")]; st.MfaPolicyID != carolPasskey || st.Satisfied || len(st.SatisfiedMethods) != 0 {
		t.Errorf("carol's status = %+v", st)
	}
	only, err := alice.GetMfaStatus(ctx, act.ID, e.user("carol"))
	if err != nil || len(only) != 1 || only[0].UserID != e.user("carol") {
		t.Fatalf("GetMfaStatus(carol) = %+v, %v", only, err)
	}
	// The old name stays: list_mfa_policies without a user lists everyone's.
	if all := allMfaPolicies(t, alice); len(all) != 3 {
		t.Fatalf("list_mfa_policies = %d", len(all))
	}
}

// list_mfa_policies, the earlier name of get_mfa_policies, answers as it does
// for a user: a user id that is not one of the organization's (a typo, or
// another organization's user) is a 404, not an empty list.
func TestListMfaPoliciesAnswersAsGetMfaPoliciesForAUser(t *testing.T) {
	e := newEnv(t)
	other, err := e.srv.CreateOrganization(context.Background(), "Other", 1, []UserSpec{{Name: "mallory", Root: true,
		APIKeys: []APIKeySpec{{PublicKey: e.newKey("mallory").PublicKeyHex()}}}})
	if err != nil {
		t.Fatal(err)
	}
	query := func(name, userID string) reply {
		t.Helper()
		body, err := json.Marshal(api.GetMfaPoliciesRequest{OrganizationID: e.org.ID, UserID: userID})
		if err != nil {
			t.Fatal(err)
		}
		return e.post(api.QueryPrefix+name, body, e.keys["alice"])
	}
	for _, name := range []string{api.QueryGetMfaPolicies, api.QueryListMfaPolicies} {
		for _, userID := range []string{"no-such-user", other.UserIDs["mallory"]} {
			wantError(t, query(name, userID), 404, api.CodeNotFound, "USER_NOT_FOUND")
		}
		if r := query(name, e.user("bob")); r.status != 200 || string(r.body) != `{"mfaPolicies":[]}` {
			t.Errorf("%s for bob: HTTP %d %s, want 200 and no policies", name, r.status, r.body)
		}
	}
}

// An MFA policy whose condition cannot run applies: the MFA it asks for is
// required, never skipped (such a policy can only predate the submission check).
func TestMfaConditionThatCannotRunApplies(t *testing.T) {
	e := newEnv(t)
	in := policy.Input{Activity: policy.Activity{Type: api.TypeCreateUserTag, Params: map[string]any{"n": 1}}}
	for _, cond := range []string{"activity.type ==", "activity.params.n / 0 == 1"} {
		ps := []api.MfaPolicy{
			{MfaPolicyID: "broken", Condition: cond},
			{MfaPolicyID: "later", Condition: "true"},
		}
		if got := e.srv.applicableMfaPolicy(ps, in); got == nil || got.MfaPolicyID != "broken" {
			t.Errorf("condition %q: applicable policy %+v, want the broken one", cond, got)
		}
	}
	ps := []api.MfaPolicy{{MfaPolicyID: "other", Condition: "activity.type == 'ACTIVITY_TYPE_OAUTH'"}, {MfaPolicyID: "all", Condition: "true"}}
	if got := e.srv.applicableMfaPolicy(ps, in); got == nil || got.MfaPolicyID != "all" {
		t.Errorf("applicable policy %+v, want the first whose condition is true", got)
	}
}

func TestCompletedActivityCarriesItsAppProofs(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	alice, bob := e.clients["alice"], e.later("bob")
	act, err := alice.CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "proved", UserIDs: []string{e.user("bob")}}, api.WithAppProofs())
	if err != nil {
		t.Fatal(err)
	}
	if len(act.AppProofs) != 0 {
		t.Fatalf("pending activity carries app proofs: %+v", act.AppProofs)
	}
	done, err := bob.ApproveActivity(ctx, act.Fingerprint)
	if err != nil || done.Status != api.StatusCompleted {
		t.Fatalf("approve: %v %+v", err, done)
	}
	listed, err := alice.ListAppProofs(ctx, act.ID)
	if err != nil || len(listed) != 1 {
		t.Fatalf("ListAppProofs = %+v, %v", listed, err)
	}
	if len(done.AppProofs) != 1 || done.AppProofs[0] != listed[0] {
		t.Fatalf("vote reply appProofs = %+v, want %+v", done.AppProofs, listed)
	}
	got, err := alice.GetActivity(ctx, act.ID)
	if err != nil || len(got.AppProofs) != 1 || got.AppProofs[0] != listed[0] {
		t.Fatalf("get_activity appProofs = %+v, %v", got, err)
	}
	all, err := alice.ListActivities(ctx, api.ListActivitiesOptions{})
	if err != nil || len(all) != 1 || len(all[0].AppProofs) != 1 {
		t.Fatalf("list_activities = %+v, %v", all, err)
	}
	// Without generateAppProofs there are none on the record.
	plain, err := alice.CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "plain", UserIDs: []string{e.user("bob")}})
	if err != nil {
		t.Fatal(err)
	}
	if done, err := bob.ApproveActivity(ctx, plain.Fingerprint); err != nil || done.Status != api.StatusCompleted || done.AppProofs != nil {
		t.Fatalf("plain activity: %v %+v", err, done)
	}
}

func isAPINotFound(err error) bool { return errors.Is(err, api.ErrNotFound) }

// apiKeyID is the id of the user's one API key, read from the store.
func (e *testEnv) apiKeyID(userID string) string {
	e.t.Helper()
	var id string
	if err := e.srv.db.read.QueryRowContext(context.Background(), `SELECT id FROM api_keys WHERE user_id = ?`, userID).Scan(&id); err != nil {
		e.t.Fatal(err)
	}
	return id
}
