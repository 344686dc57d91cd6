package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// policy create checks the service's limits before anything else, as every
// submit verb does: over the limit is exit 2 naming the field, with no deny
// warning (which reads the quorum from the service) and nothing submitted.
func TestPolicyCreateOverALimitIsAUsageMistakeBeforeAnythingIsSent(t *testing.T) {
	e := newVerbEnv(t)
	ctx := context.Background()
	alice := e.client("alice")
	before, err := alice.ListActivities(ctx, api.ListActivitiesOptions{})
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("z", api.MaxNameLength+1)
	longNotes := strings.Repeat("n", api.MaxNotesLength+1)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"policy", "create", "--name", long, "--effect", "deny", "--condition", "true"}, "policy create: invalid parameter policyName: is 257 characters long, over the limit of 256"},
		{[]string{"policy", "create", "--name", "x", "--effect", "allow", "--condition", "true", "--notes", longNotes}, "policy create: invalid parameter notes:"},
	} {
		code, out, errOut := e.run("", tc.args...)
		wantExit(t, "policy create over a limit", code, exitUsage, out, errOut)
		if !strings.Contains(errOut, tc.want) {
			t.Errorf("the error does not say %q:\n%s", tc.want, errOut)
		}
		if strings.Contains(errOut, "warning:") || strings.Contains(errOut, "submit/") {
			t.Errorf("it went on to the service before refusing:\n%s", errOut)
		}
	}
	after, err := alice.ListActivities(ctx, api.ListActivitiesOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(after) != len(before) || (len(after) > 0 && after[0].ID != before[0].ID) {
		t.Errorf("an activity was submitted: %d activities before, %d after", len(before), len(after))
	}
}
