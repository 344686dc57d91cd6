package cli

import (
	"strings"
	"testing"
)

// The vote prompt names the tags and users a proposed policy's expressions
// refer to, right where the voter decides, and warns of an id naming neither.
func TestApprovePromptNamesThePolicysTagsAndUsers(t *testing.T) {
	e := newVerbEnv(t)
	id, want, unknown := e.proposeNamingPolicy()
	code, _, errOut, _ := e.runOnTerminal("Approve this activity? [y/N]", "n\n", "activity", "approve", id)
	if code != 1 {
		t.Fatalf("answer n: exit %d\n%s", code, errOut)
	}
	for _, w := range want {
		if !strings.Contains(errOut, w) {
			t.Errorf("the vote prompt lacks %q:\n%s", w, errOut)
		}
	}
	if !strings.Contains(errOut, "WARNING: "+unknown+" is not a tag or user") {
		t.Errorf("an id naming no tag or user has no warning:\n%s", errOut)
	}
	wantOnlyEscaped(t, "the vote prompt", errOut)
}
