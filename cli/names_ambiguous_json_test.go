package cli

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// 'feature list' names the root quorum's users from list_users. Answered
// {"users":[…], "USERS":[{alice's id, "mallory"}]}, it showed alice's id
// as mallory's (encoding/json's reading) where jq reads alice. A listing
// read two ways names no one: the ids are shown, and standard error says why.
func TestNamesFromAListingReadTwoWaysAreNotShown(t *testing.T) {
	e := newVerbEnv(t)
	alice := e.userID("alice")
	url := e.demo.Rewriting(func(op string, request, reply []byte) []byte {
		if op != "query/"+api.QueryListUsers {
			return reply
		}
		// Last: encoding/json keeps the last of two keys it matches alike.
		return append(bytes.TrimSuffix(bytes.TrimSpace(reply), []byte("}")),
			[]byte(`,"USERS":[{"userId":"`+alice+`","userName":"mallory"}]}`)...)
	})
	env := map[string]string{"VIGIL_CONFIG": e.configVia(url, filepath.Join(t.TempDir(), "names.toml"))}
	code, out, errOut := runVigil(t, env, "", "feature", "list")
	wantExit(t, "a listing of names read two ways", code, exitOK, out, errOut)
	if strings.Contains(out, "mallory") {
		t.Errorf("standard output names a user only encoding/json read:\n%s", out)
	}
	if !strings.Contains(out, alice) {
		t.Errorf("standard output does not show the quorum's ids:\n%s", out)
	}
	if !strings.Contains(errOut, "read two ways") || !strings.Contains(errOut, "ids shown") {
		t.Errorf("standard error does not say why ids are shown:\n%s", errOut)
	}
}
