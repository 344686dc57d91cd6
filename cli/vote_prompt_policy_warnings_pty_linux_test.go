package cli

import (
	"strings"
	"testing"
)

// The vote prompt warns of what a proposed policy's condition does
// differently on the real service, as the console's vote dialog does: the
// author was warned, never stopped, and the approver reads it last.
func TestApprovePromptWarnsOfThePolicysCondition(t *testing.T) {
	e := newVerbEnv(t)
	id, want := e.proposeWarnedPolicy()
	errOut := declinedPromptSays(t, e, id, want)
	wantOnlyEscaped(t, "the vote prompt", errOut)
}

// The vote prompt warns of the proposed policy's consensus too, under its
// own heading: an allow whose consensus errors on the real service never
// allows there.
func TestApprovePromptWarnsOfThePolicysConsensus(t *testing.T) {
	e := newVerbEnv(t)
	id, want := e.proposeConsensusWarnedPolicy()
	declinedPromptSays(t, e, id, want)
}

// declinedPromptSays answers n at the vote prompt of activity id on a
// terminal, checks the prompt says every line of want, and returns what it
// wrote on standard error.
func declinedPromptSays(t *testing.T, e *verbEnv, id string, want []string) string {
	t.Helper()
	code, _, errOut, _ := e.runOnTerminal("Approve this activity? [y/N]", "n\n", "activity", "approve", id)
	if code != 1 {
		t.Fatalf("answer n: exit %d\n%s", code, errOut)
	}
	for _, w := range want {
		if !strings.Contains(errOut, w) {
			t.Errorf("the vote prompt lacks %q:\n%s", w, errOut)
		}
	}
	return errOut
}
