package cli

import (
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// A key that has expired (by the service's clock) signs nothing, so an MFA
// method pinned to it can never be met: mfa create refuses such a --step
// before sending, and mfa list and get flag a stored policy whose pinned key
// has expired since.
func TestMfaPinToAnExpiredKeyIsRefusedAndFlagged(t *testing.T) {
	e, offset := withCarolsHourKey(t)
	carol, err := e.client("alice").GetUser(t.Context(), e.userID("carol"))
	if err != nil {
		t.Fatal(err)
	}
	var hour string
	for _, k := range carol.APIKeys {
		if k.ExpirationSeconds == "3600" {
			hour = k.APIKeyID
		}
	}
	if hour == "" {
		t.Fatalf("carol's keys hold no 1-hour key: %+v", carol.APIKeys)
	}
	// Stored while the key still signs.
	act, err := e.client("alice").CreateMfaPolicy(t.Context(), api.CreateMfaPolicyParams{UserID: e.userID("carol"), MfaPolicyName: "pinned to the hour key", Condition: "true",
		RequiredAuthenticationMethods: []api.AuthenticationStep{{Any: []api.AuthenticationMethod{{Type: api.AuthOauth, ID: hour}}}}})
	if err != nil {
		t.Fatal(err)
	}
	act = e.approvedByBob(act)
	if act.Result.CreateMfaPolicyResult == nil {
		t.Fatalf("MFA policy not created: %+v", act)
	}
	id := act.Result.CreateMfaPolicyResult.MfaPolicyID
	offset.Store(int64(3 * time.Hour)) // the key has expired, by the service's clock

	for _, args := range [][]string{{"mfa", "list", "--user", e.userID("carol")}, {"mfa", "list"}, {"mfa", "get", id}} {
		code, out, errOut := e.run("", args...)
		wantExit(t, strings.Join(args, " "), code, 0, out, errOut)
		if !strings.Contains(out, "OAUTH:"+hour+" (can never be met: the API key expired at ") {
			t.Errorf("%s: the OAUTH method pinned to the expired key should be flagged:\n%s", strings.Join(args, " "), out)
		}
	}

	before := e.mfaActivities(t)
	code, out, errOut := e.run("", "mfa", "create", "--user", "carol", "--name", "pinned", "--condition", "true", "--step", "oauth:"+hour, "--order", "0")
	wantExit(t, "mfa create --step oauth:<the expired key>", code, 2, out, errOut)
	if !strings.Contains(errOut, hour) || !strings.Contains(errOut, "expired") {
		t.Errorf("the refusal should name the key and say it expired:\n%s", errOut)
	}
	if after := e.mfaActivities(t); after != before {
		t.Errorf("a refused mfa create was sent anyway: %d create_mfa_policy activities, %d before", after, before)
	}
}
