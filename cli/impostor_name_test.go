package cli

import (
	"strings"
	"testing"
)

// A user named after another user's name and id, "carol (<carol's id>)", is
// listed by user list with its name quoted: unquoted, the row read as carol
// with carol's id.
func TestUserListQuotesANameHoldingAnotherUsersID(t *testing.T) {
	e := newVerbEnv(t)
	carol := e.userID("carol")
	fake := e.demo.AddUserWithKeys("carol ("+carol+")", 0, 0)
	code, out, errOut := e.run("", "user", "list")
	wantExit(t, "user list", code, 0, out, errOut)
	var row string
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, fake) {
			row = l
		}
	}
	if !strings.Contains(row, `"carol (`+carol+`)"`) {
		t.Errorf("the impostor %s should be listed with its name quoted:\n%s", fake, out)
	}
}
