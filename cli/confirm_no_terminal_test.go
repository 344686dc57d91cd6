package cli

import (
	"strings"
	"testing"
)

// Without a terminal and without --yes, the refusal is a sentence that says
// what was refused and what to do (--yes, or a terminal), rather than the
// dialog's question pasted into one ("Approve this activity needs …").
func TestApproveWithoutTerminalSaysWhatToDo(t *testing.T) {
	e := newVerbEnv(t)
	code, out, errOut := e.run("", "tag", "create", "--name", "reviewers", e.userID("operator"))
	wantExit(t, "tag create", code, 0, out, errOut)
	id := activityIDFrom(t, out)

	code, out, errOut = e.run("y\n", "activity", "approve", "--profile", "bob", id)
	wantExit(t, "approve without --yes", code, 2, out, errOut)
	for _, want := range []string{"nothing was sent", "to approve this activity", "pass --yes", "in a terminal"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("refusal lacks %q:\n%s", want, errOut)
		}
	}
	if strings.Contains(errOut, "Approve this activity needs") {
		t.Errorf("the dialog's title pasted into the sentence:\n%s", errOut)
	}
}
