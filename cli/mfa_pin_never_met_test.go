package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// A stored MFA policy whose method is pinned to a credential that cannot
// prove its type (an API_KEY pinned to operator's passkey) is flagged by
// `mfa list` and `mfa get` as never met; a well-pinned method is not.
func TestMfaListAndGetFlagPinsNeverMet(t *testing.T) {
	e := newVerbEnv(t)
	ctx := context.Background()
	operator := e.userID("operator")
	u, err := e.client("alice").GetUser(ctx, operator)
	if err != nil || len(u.Authenticators) == 0 {
		t.Fatalf("operator should have a passkey: %+v %v", u, err)
	}
	passkey := u.Authenticators[0].AuthenticatorID
	act, err := e.client("alice").CreateMfaPolicy(ctx, api.CreateMfaPolicyParams{UserID: operator, MfaPolicyName: "pinned wrongly", Condition: "true", Order: 3,
		RequiredAuthenticationMethods: []api.AuthenticationStep{
			{Any: []api.AuthenticationMethod{{Type: api.AuthPasskey, ID: passkey}}},
			{Any: []api.AuthenticationMethod{{Type: api.AuthAPIKey, ID: passkey}}}}})
	if err != nil {
		t.Fatal(err)
	}
	if !api.IsTerminal(act.Status) {
		if act, err = e.client("bob").ApproveActivity(ctx, act.Fingerprint); err != nil {
			t.Fatal(err)
		}
	}
	if act.Result.CreateMfaPolicyResult == nil {
		t.Fatalf("MFA policy not created: %+v", act)
	}
	id := act.Result.CreateMfaPolicyResult.MfaPolicyID
	for _, args := range [][]string{{"mfa", "list", "--user", operator}, {"mfa", "get", id}} {
		code, out, errOut := e.run("", args...)
		wantExit(t, strings.Join(args, " "), code, 0, out, errOut)
		if n := strings.Count(out, "can never be met"); n != 1 || !strings.Contains(out, "API_KEY:"+passkey+" (can never be met: pinned to a PASSKEY credential)") {
			t.Errorf("%s: the API_KEY pinned to a passkey should be flagged once (%d):\n%s", strings.Join(args, " "), n, out)
		}
	}
}
