package cli

import (
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// 'vigil activity get' of an oauth activity names the user the token's
// subject is linked to, as the vote prompt does: whoever reads the activity
// learns whose account it touches, not only an unverified subject.
func TestActivityGetNamesWhomAnOauthTokenSignsIn(t *testing.T) {
	e := newVerbEnv(t)
	act, token, _ := carolOauth(t, e)
	code, out, errOut := e.run("", "activity", "get", "--profile", "bob", act.ID)
	wantExit(t, "activity get", code, exitOK, out, errOut)
	want := "user:  " + api.NameWithID("carol", e.userID("carol"))
	if !strings.Contains(out, want) {
		t.Errorf("activity get does not name the linked user (%q):\n%s", want, out)
	}
	for _, part := range strings.Split(token, ".") {
		if strings.Contains(out+errOut, part) {
			t.Fatalf("activity get shows the token:\n%s", out)
		}
	}
}
