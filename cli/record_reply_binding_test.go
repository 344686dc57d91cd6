package cli

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// A proxy answers get_activity, get_api_key, get_policy, get_user,
// get_mfa_policy and get_policy_evaluations with another record of the organization (its real reply, the id asked for
// turned into another's): each get refuses it, text and --json alike, with
// exit 1 and both ids, and prints nothing of it.
func TestGetVerbsRefuseAReplyAboutAnotherRecord(t *testing.T) {
	e := newVerbEnv(t)
	ctx := context.Background()
	alice := e.client("alice")
	aliceID, bobID := e.userID("alice"), e.userID("bob")
	user, err := alice.GetUser(ctx, aliceID)
	if err != nil || len(user.APIKeys) == 0 {
		t.Fatalf("alice's user record: %v (%d keys)", err, len(user.APIKeys))
	}
	bob, err := alice.GetUser(ctx, bobID)
	if err != nil || len(bob.APIKeys) == 0 {
		t.Fatalf("bob's user record: %v", err)
	}
	policies, err := alice.ListPolicies(ctx)
	if err != nil || len(policies) < 2 {
		t.Fatalf("policies: %v (%d)", err, len(policies))
	}
	mfa, err := alice.GetMfaPolicies(ctx, aliceID)
	if err != nil || len(mfa) < 2 {
		t.Fatalf("alice's MFA policies: %v (%d)", err, len(mfa))
	}
	first, err := alice.CreateReadOnlySession(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// Two sessions asked for in one millisecond have one body: the service
	// takes the second for a retry of the first and answers with it. The
	// test needs two records, so it asks again until it has a second.
	second := first
	for range 100 {
		if second, err = alice.CreateReadOnlySession(ctx); err != nil {
			t.Fatal(err)
		}
		if second.ID != first.ID {
			break
		}
	}
	if second.ID == first.ID {
		t.Fatalf("set-up: every read-only session came back as %s", first.ID)
	}
	cases := []struct {
		query, what, asked, other string
		args                      []string
	}{
		{api.QueryGetActivity, "activity", first.ID, second.ID, []string{"activity", "get"}},
		{api.QueryGetPolicyEvaluations, "activity", first.ID, second.ID, []string{"activity", "evaluations"}},
		{api.QueryGetAPIKey, "API key", user.APIKeys[0].APIKeyID, bob.APIKeys[0].APIKeyID, []string{"apikey", "get"}},
		{api.QueryGetPolicy, "policy", policies[0].PolicyID, policies[1].PolicyID, []string{"policy", "get"}},
		{api.QueryGetUser, "user", aliceID, bobID, []string{"user", "get"}},
		{api.QueryGetMfaPolicy, "MFA policy", mfa[0].MfaPolicyID, mfa[1].MfaPolicyID, []string{"mfa", "get", "--user", aliceID}},
	}
	for _, tc := range cases {
		proxy := e.demo.Rewriting(func(op string, request, reply []byte) []byte {
			if op != "query/"+tc.query {
				return reply
			}
			return bytes.ReplaceAll(reply, []byte(tc.asked), []byte(tc.other))
		})
		cfg := e.configVia(proxy, filepath.Join(t.TempDir(), "proxy.toml"))
		env := map[string]string{"VIGIL_CONFIG": cfg}
		for _, json := range []bool{false, true} {
			args := append([]string{}, tc.args...)
			if json {
				args = append(args, "--json")
			}
			args = append(args, tc.asked)
			name := strings.Join(args, " ")
			code, out, errOut := runVigil(t, env, "", args...)
			wantExit(t, name, code, exitFailure, out, errOut)
			want := "the reply is about another " + tc.what + " than " + tc.asked + ": its id is " + tc.other
			if tc.query == api.QueryGetPolicyEvaluations {
				want = "the reply holds an evaluation of another activity than " + tc.asked + ": " + tc.other
			}
			if !strings.Contains(errOut, want) {
				t.Errorf("%s: the error does not say %q:\n%s", name, want, errOut)
			}
			if strings.Contains(out, tc.other) {
				t.Errorf("%s: the other record is printed:\n%s", name, out)
			}
		}
	}
}
