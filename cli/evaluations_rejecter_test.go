//go:build linux

package cli

import (
	"strings"
	"testing"
)

// 'activity evaluations' names the member whose rejection decided from the
// organization's user list, not by the vote's own "user" label, which no
// signature covers: bob's rejection relabelled "carol" is still bob's.
func TestEvaluationsNameTheRejecterFromTheUserList(t *testing.T) {
	e := newVerbEnv(t)
	code, out, errOut := e.run("", "tag", "create", "--name", "to-reject", e.userID("operator"))
	wantExit(t, "tag create", code, 0, out, errOut)
	id := activityIDFrom(t, out)
	code, out, errOut = e.run("", "activity", "reject", "--yes", "--profile", "bob", id)
	wantExit(t, "reject", code, 0, out, errOut)
	bob := e.userID("bob")
	via := e.via(rewriteEveryVote(func(v map[string]any) {
		if v["userId"] == bob {
			v["user"].(map[string]any)["userName"] = "carol"
		}
	}))
	code, out, errOut = via.run("", "activity", "evaluations", id)
	wantExit(t, "evaluations", code, 0, out, errOut)
	if !strings.Contains(out, "rejection by") {
		t.Fatalf("set-up: no rejection row:\n%s", out)
	}
	if strings.Contains(out, `rejection by "carol"`) || !strings.Contains(out, "bob") {
		t.Errorf("bob's rejection, relabelled carol by the reply, is named carol's:\n%s", out)
	}
}
