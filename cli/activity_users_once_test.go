package cli

import (
	"strings"
	"sync/atomic"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// activity get of a policy activity whose consensus names a user id, with
// a verified vote, reads the organization's users once: the list that
// says whose key signed each vote also names the ids in the expressions,
// so the two cannot come from different lists.
func TestActivityGetReadsTheUserListOnce(t *testing.T) {
	e := newVerbEnv(t)
	bob := e.userID("bob")
	code, out, errOut := e.run("", "policy", "create", "--name", "names bob", "--effect", "allow",
		"--condition", "activity.action == 'NOPE'", "--consensus", "approvers.any(user, user.id == '"+bob+"')")
	wantExit(t, "policy create", code, exitOK, out, errOut)
	id := activityIDFrom(t, out)
	var lists atomic.Int32
	via := e.via(servertest.Rewrite(func(op string, request, reply []byte) []byte {
		if op == "query/"+api.QueryListUsers {
			lists.Add(1)
		}
		return reply
	}))
	code, out, errOut = via.run("", "activity", "get", id)
	wantExit(t, "activity get", code, exitOK, out, errOut)
	if !strings.Contains(out, "[verified: ") || !strings.Contains(out, "refer to") {
		t.Fatalf("set-up: want a verified vote and the ids block:\n%s\n%s", out, errOut)
	}
	if n := lists.Load(); n != 1 {
		t.Errorf("activity get read list_users %d times; want once", n)
	}
}
