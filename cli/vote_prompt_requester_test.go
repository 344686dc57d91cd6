//go:build linux

package cli

import (
	"strings"
	"testing"
)

// The vote prompt of 'activity approve' names the requester from the
// organization's user list, not by the requester's vote's own "user"
// label, which no signature covers: a proxy that renames alice's vote
// "mallory" must not have bob asked to approve mallory's request.
func TestVotePromptNamesTheRequesterFromTheUserList(t *testing.T) {
	e := newVerbEnv(t)
	code, out, errOut := e.run("", "tag", "create", "--name", "relabelled", e.userID("operator"))
	wantExit(t, "tag create", code, 0, out, errOut)
	id := activityIDFrom(t, out)
	alice := e.userID("alice")
	via := e.via(rewriteEveryVote(func(v map[string]any) {
		if v["userId"] == alice {
			v["user"].(map[string]any)["userName"] = "mallory"
		}
	}))
	code, _, errOut, _ = via.runOnTerminal("Approve this activity? [y/N]", "n\n", "activity", "approve", "--profile", "bob", id)
	if code != 1 {
		t.Fatalf("answer n: exit %d\n%s", code, errOut)
	}
	var line string
	for _, l := range strings.Split(errOut, "\n") {
		if strings.HasPrefix(l, "requester:") {
			line = l
		}
	}
	if !strings.Contains(line, "alice") || !strings.Contains(line, "WARNING") {
		t.Errorf("the vote prompt does not name alice's request hers, from the user list, warning of the relabel: %q\n%s", line, errOut)
	}
}
