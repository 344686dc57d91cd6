package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// tvc-deployment delete checks its id as the other verbs do, before the
// profile and the confirm: an id longer than the service takes, or a flag
// given after -- (no deployment id starts with -), is a usage mistake (exit
// 2, saying what is wrong), not a refusal after the confirm (exit 1); and
// nothing is sent.
func TestTvcDeploymentDeleteChecksItsIDFirst(t *testing.T) {
	e := newVerbEnv(t)
	count := func() int {
		t.Helper()
		acts, err := e.client("alice").ListActivities(context.Background(), api.ListActivitiesOptions{Limit: 100})
		if err != nil {
			t.Fatal(err)
		}
		return len(acts)
	}
	before := count()
	for _, tc := range []struct {
		what string
		args []string
		want string
	}{
		// Not hex: 257 hex digits would be refused as a pasted key first.
		{"an over-long id", []string{"--yes", strings.Repeat("z", api.MaxIDLength+1)}, "deploymentId"},
		{"-- --json", []string{"--yes", "--", "--json"}, `"--json" looks like a flag`},
	} {
		code, out, errOut := e.run("", append([]string{"tvc-deployment", "delete"}, tc.args...)...)
		wantExit(t, "tvc-deployment delete "+tc.what, code, exitUsage, out, errOut)
		if !strings.Contains(errOut, tc.want) {
			t.Errorf("tvc-deployment delete %s: stderr should say %q:\n%s", tc.what, tc.want, errOut)
		}
	}
	if after := count(); after != before {
		t.Errorf("a refused delete was sent: %d activities, then %d", before, after)
	}
}
