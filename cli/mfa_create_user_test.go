package cli

import (
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// mfa create refuses a --user that is no user before anything is sent (the
// service fails it only after the root quorum has voted), and sends a user
// given by name by its id, as invitation create --sender and tag create do.
func TestMfaCreateChecksTheUserBeforeSending(t *testing.T) {
	e := newVerbEnv(t)
	mfaActivities := func() int { return e.countActivities(t, api.TypeCreateMfaPolicy) }
	before := mfaActivities()
	create := []string{"mfa", "create", "--name", "n", "--condition", "true", "--step", "passkey", "--order", "0", "--user"}
	for _, tc := range []struct{ user, want string }{
		{"nosuch", `mfa create: --user "nosuch" is neither the id nor the name of a user of this organization (known: "alice" (id ` + e.userID("alice")},
		{e.userID("operator") + "Q", "is neither the id nor the name of a user of this organization"},
	} {
		code, out, errOut := e.run("", append(create[:len(create):len(create)], tc.user)...)
		wantExit(t, "mfa create --user "+tc.user, code, 2, out, errOut)
		if !strings.Contains(errOut, tc.want) {
			t.Errorf("--user %s: stderr %q, want %q", tc.user, errOut, tc.want)
		}
	}
	if after := mfaActivities(); after != before {
		t.Fatalf("a refused MFA policy was sent: %d create_mfa_policy activities before, %d after", before, after)
	}

	a := e.submitAndApprove("", append(create[:len(create):len(create)], "operator")...)
	if got := a.Intent.CreateMfaPolicyIntent.UserID; got != e.userID("operator") {
		t.Errorf("--user operator was sent as %q, want the id %q", got, e.userID("operator"))
	}
	if a.Status != api.StatusCompleted {
		t.Errorf("the MFA policy %s: %+v", a.Status, a.Failure)
	}
}
