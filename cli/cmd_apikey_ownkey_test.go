package cli

import (
	"strings"
	"testing"
)

// vigil apikey delete, run with the very profile whose key it deletes, warns
// on stderr before submitting (also with --yes) that it locks this profile
// out, as the console's confirm does; deleting another user's key does not.
func TestAPIKeyDeleteWarnsWhenItDeletesTheProfilesOwnKey(t *testing.T) {
	e := newVerbEnv(t)
	own := e.onlyKeyOf("alice")
	// carol's key first: deleting her own key completes at once (a user may
	// change their own credentials), after which alice's profile cannot sign.
	code, out, errOut := e.run("", "apikey", "delete", "--yes", "--profile", "alice", e.onlyKeyOf("carol"))
	wantExit(t, "alice deletes carol's key", code, 0, out, errOut)
	if strings.Contains(errOut, "locks vigil out") {
		t.Errorf("deleting carol's key with profile alice: warned that it locks alice out:\n%s", errOut)
	}
	code, out, errOut = e.run("", "apikey", "delete", "--yes", "--profile", "alice", own)
	wantExit(t, "alice deletes her own key", code, 0, out, errOut)
	if !strings.Contains(errOut, own) || !strings.Contains(errOut, `profile "alice" signs with`) || !strings.Contains(errOut, "locks vigil out of this profile") {
		t.Errorf("deleting the key profile alice stamps with: no warning that it locks this profile out:\n%s", errOut)
	}
}
