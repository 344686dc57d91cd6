package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// A stored MFA policy whose method is pinned to a credential that cannot
// prove its type (an API_KEY pinned to operator's passkey) is flagged by
// `mfa list` and `mfa get` as never met; a well-pinned method is not. vigil's
// own service refuses such a pin, so the policy is stored well pinned and
// served, by a service that took the pin (the official one may), as it was
// sent there.
func TestMfaListAndGetFlagPinsNeverMet(t *testing.T) {
	e := newVerbEnv(t)
	ctx := context.Background()
	operator := e.userID("operator")
	u, err := e.client("alice").GetUser(ctx, operator)
	if err != nil || len(u.Authenticators) == 0 {
		t.Fatalf("operator should have a passkey: %+v %v", u, err)
	}
	passkey := u.Authenticators[0].AuthenticatorID
	pinned := func(second string) []api.AuthenticationStep {
		return []api.AuthenticationStep{
			{Any: []api.AuthenticationMethod{{Type: api.AuthPasskey, ID: passkey}}},
			{Any: []api.AuthenticationMethod{{Type: second, ID: passkey}}}}
	}
	act, err := e.client("alice").CreateMfaPolicy(ctx, api.CreateMfaPolicyParams{UserID: operator, MfaPolicyName: "pinned wrongly", Condition: "true", Order: 3,
		RequiredAuthenticationMethods: pinned(api.AuthPasskey)})
	if err != nil {
		t.Fatal(err)
	}
	act = e.approvedByBob(act)
	if act.Result.CreateMfaPolicyResult == nil {
		t.Fatalf("MFA policy not created: %+v", act)
	}
	id := act.Result.CreateMfaPolicyResult.MfaPolicyID
	config := e.configVia(e.demo.Rewriting(servertest.Serving(t, pinned(api.AuthPasskey), pinned(api.AuthAPIKey))), e.config+".other")
	for _, args := range [][]string{{"mfa", "list", "--user", operator}, {"mfa", "get", id}} {
		code, out, errOut := e.run("", append(args, "--config", config)...)
		wantExit(t, strings.Join(args, " "), code, 0, out, errOut)
		if n := strings.Count(out, "can never be met"); n != 1 || !strings.Contains(out, "API_KEY:"+passkey+" (can never be met: pinned to a PASSKEY credential)") {
			t.Errorf("%s: the API_KEY pinned to a passkey should be flagged once (%d):\n%s", strings.Join(args, " "), n, out)
		}
	}
}
