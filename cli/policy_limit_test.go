package cli

import (
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server"
)

// An organization whose policies are full (the service caps their total,
// since list_policies answers them all at once and none can be deleted):
// `policy create` is refused with what was hit and what to do, and `policy
// list` still lists every policy. Against the local service, its cap
// lowered so that two policies fill it.
func TestPolicyCreateRefusedWhenTheOrganizationsPoliciesAreFull(t *testing.T) {
	e := newVerbEnvWith(t, server.Config{MaxPolicyBytes: 8 << 10})
	notes := strings.Repeat("n", api.MaxNotesLength)
	code, out, errOut := e.run("", "policy", "create", "--name", "long notes", "--effect", "allow",
		"--condition", "activity.type == 'ACTIVITY_TYPE_CREATE_READ_ONLY_SESSION'", "--notes", notes)
	wantExit(t, "create a policy that fits", code, 0, out, errOut)
	code, out, errOut = e.run("", "activity", "approve", "--yes", "--profile", "carol", activityIDFrom(t, out))
	wantExit(t, "approve it", code, 0, out, errOut)

	code, out, errOut = e.run("", "policy", "create", "--name", "no room", "--effect", "allow",
		"--condition", "activity.type == 'ACTIVITY_TYPE_CREATE_READ_ONLY_SESSION'", "--notes", notes)
	wantExit(t, "create a policy with no room left", code, 1, out, errOut)
	for _, want := range []string{"POLICY_LIMIT", "8.0 KiB", "cannot be deleted", "shorten"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("the refusal does not say %q:\n%s", want, errOut)
		}
	}

	code, out, errOut = e.run("", "policy", "list")
	wantExit(t, "policy list", code, 0, out, errOut)
	if !strings.Contains(out, "long notes") || strings.Contains(out, "no room") {
		t.Errorf("policy list should show the policy that fit and not the one refused:\n%s", out)
	}
}
