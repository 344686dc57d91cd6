package cli

import (
	"strings"
	"testing"
)

// A consensus naming a tag by its name where user.tags holds ids never
// matches: 'policy create', against the local service with the demo's real
// "operator" tag, warns before sending and names the id to write (audit 212, F2).
func TestPolicyCreateWarnsOfATagNameWhereItsIDIsExpected(t *testing.T) {
	e := newVerbEnv(t)
	tag := e.demoTagID("operator")
	code, out, errOut := e.run("", "policy", "create", "--name", "ops approve", "--effect", "allow",
		"--condition", "activity.action == 'DELETE'",
		"--consensus", "approvers.any(user, user.tags.contains('operator'))")
	wantExit(t, "policy create", code, 0, out, errOut)
	want := `warning: "operator" is the NAME of tag ` + tag + "; user.tags holds tag ids, so it never matches: write '" + tag + "'"
	if !strings.Contains(errOut, want) {
		t.Errorf("policy create with a consensus naming the tag operator by its name gave no warning\nwant: %s\nstderr: %s", want, strings.TrimSpace(errOut))
	}

	_, _, errOut = e.run("", "policy", "create", "--name", "ops approve by id", "--effect", "allow",
		"--condition", "activity.action == 'DELETE'",
		"--consensus", "approvers.any(user, user.tags.contains('"+tag+"'))")
	if strings.Contains(errOut, "warning") {
		t.Errorf("the tag's id is warned about:\n%s", errOut)
	}
}
