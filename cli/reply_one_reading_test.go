package cli

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// From audit 216. A proxy answers get_api_key, get_policy, get_user and
// get_mfa_policy with another record whose id key is followed by a
// case-variant key holding the id asked for ("apiKeyId":<other>,
// "APIKEYID":<asked>): encoding/json keeps the last, jq and the rest keep
// the first. Each get refuses it, text and --json alike, with exit 1, and
// prints nothing of it.
func TestGetVerbsRefuseARecordReplyReadTwoWays(t *testing.T) {
	e := newVerbEnv(t)
	ctx := context.Background()
	alice := e.client("alice")
	aliceID, bobID := e.userID("alice"), e.userID("bob")
	user, err := alice.GetUser(ctx, aliceID)
	if err != nil || len(user.APIKeys) == 0 {
		t.Fatalf("alice's user record: %v", err)
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
	cases := []struct {
		query, key, variant, asked, other string
		args                              []string
	}{
		{api.QueryGetAPIKey, "apiKeyId", "APIKEYID", user.APIKeys[0].APIKeyID, bob.APIKeys[0].APIKeyID, []string{"apikey", "get"}},
		{api.QueryGetPolicy, "policyId", "POLICYID", policies[0].PolicyID, policies[1].PolicyID, []string{"policy", "get"}},
		{api.QueryGetUser, "userId", "USERID", aliceID, bobID, []string{"user", "get"}},
		{api.QueryGetMfaPolicy, "mfaPolicyId", "MFAPOLICYID", mfa[0].MfaPolicyID, mfa[1].MfaPolicyID, []string{"mfa", "get", "--user", aliceID}},
	}
	for _, tc := range cases {
		proxy := e.demo.Rewriting(func(op string, request, reply []byte) []byte {
			if op != "query/"+tc.query {
				return reply
			}
			r := bytes.ReplaceAll(reply, []byte(tc.asked), []byte(tc.other))
			first := []byte(`"` + tc.key + `":"` + tc.other + `"`)
			if !bytes.Contains(r, first) {
				t.Errorf("%s: the reply has no %s to rewrite:\n%s", tc.query, first, r)
			}
			return bytes.Replace(r, first, []byte(`"`+tc.key+`":"`+tc.other+`","`+tc.variant+`":"`+tc.asked+`"`), 1)
		})
		env := map[string]string{"VIGIL_CONFIG": e.configVia(proxy, filepath.Join(t.TempDir(), "proxy.toml"))}
		for _, json := range []bool{false, true} {
			args := append([]string{}, tc.args...)
			if json {
				args = append(args, "--json")
			}
			args = append(args, tc.asked)
			name := strings.Join(args, " ")
			code, out, errOut := runVigil(t, env, "", args...)
			wantExit(t, name, code, exitFailure, out, errOut)
			want := `key "` + tc.variant + `" is not a field`
			if !strings.Contains(errOut, "the reply can be read two ways") || !strings.Contains(errOut, want) {
				t.Errorf("%s: the error does not say %q:\n%s", name, want, errOut)
			}
			if out != "" {
				t.Errorf("%s: something of the reply is printed:\n%s", name, out)
			}
		}
	}
}

// From audit 216. A login kit of another organization followed by a
// case-variant key holding the profile's ("organizationId":<other>,
// "ORGANIZATIONID":<profile's>) signs browsers in to the other
// organization: authproxy config refuses it, text and --json alike, with
// exit 1, and prints nothing of it.
func TestAuthProxyConfigRefusesAKitReadTwoWays(t *testing.T) {
	e := newVerbEnv(t)
	org, other := e.demo.Info.OrganizationID, "ffffffff-0000-7000-8000-000000000000"
	env := map[string]string{"VIGIL_CONFIG": kitConfig(t, e, func(b []byte) []byte {
		first := []byte(`"organizationId":"` + org + `"`)
		if !bytes.Contains(b, first) {
			t.Errorf("the login kit has no %s to rewrite:\n%s", first, b)
		}
		return bytes.Replace(b, first, []byte(`"organizationId":"`+other+`","ORGANIZATIONID":"`+org+`"`), 1)
	}, true)}
	for _, args := range [][]string{{"authproxy", "config", "--profile", "kit"}, {"authproxy", "config", "--json", "--profile", "kit"}} {
		name := strings.Join(args, " ")
		code, out, errOut := runVigil(t, env, "", args...)
		wantExit(t, name, code, exitFailure, out, errOut)
		want := `the reply can be read two ways (key "ORGANIZATIONID" is not a field`
		if !strings.Contains(errOut, want) || out != "" {
			t.Errorf("%s: want nothing printed and the error %q:\nstdout:\n%s\nstderr:\n%s", name, want, out, errOut)
		}
	}
}
