package cli

import "testing"

// A local set-up mistake is exit 1 for activity wait, as for activity get:
// 3 ("run it again to resume") would loop a resuming script forever.
func TestWaitSetUpMistakeIsNotAFailedWait(t *testing.T) {
	e := newVerbEnv(t)
	for _, args := range [][]string{
		{"activity", "wait", "--profile", "nosuch", "01a22477-0000-7000-8000-000000000000"},
		{"activity", "wait", "--config", t.TempDir() + "/none.toml", "01a22477-0000-7000-8000-000000000000"},
	} {
		code, out, errOut := e.run("", args...)
		if code != exitFailure {
			t.Errorf("%v: exit %d, want %d like activity get:\n%s%s", args, code, exitFailure, out, errOut)
		}
	}
}
