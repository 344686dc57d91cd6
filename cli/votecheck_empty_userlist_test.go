package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// emptyUserLists are list_users replies holding nobody, spelt three ways:
// each is a list read, and empty.
var emptyUserLists = []string{`{"users":[]}`, `{"users":null}`, `{}`}

// swappedRequesterWithUsers is a proxy answering list_users with users and
// showing alice's signed submission of activity id as bob's (vote 0's user
// id and user swapped); it returns a config reaching the service through it.
func swappedRequesterWithUsers(t *testing.T, e *verbEnv, id, users string) string {
	t.Helper()
	bobID := e.userID("bob")
	proxy := e.demo.Rewriting(func(op string, request, reply []byte) []byte {
		if op == "query/"+api.QueryListUsers {
			return []byte(users)
		}
		if op != "query/"+api.QueryGetActivity || !strings.Contains(string(reply), id) {
			return reply
		}
		var m map[string]map[string]any
		if json.Unmarshal(reply, &m) != nil || m["activity"] == nil {
			return reply
		}
		v := m["activity"]["votes"].([]any)[0].(map[string]any)
		v["userId"] = bobID
		u := v["user"].(map[string]any)
		u["userId"], u["userName"] = bobID, "bob"
		out, _ := json.Marshal(m)
		return out
	})
	return e.configVia(proxy, filepath.Join(t.TempDir(), "proxy.toml"))
}

// alice's submission shown as bob's, the user list read and holding
// nobody: the list does not hold bob's key, so the intent is NOT checked
// in the text, in --json and before an approval with --yes, however the
// empty list is spelt (null and {} are no "list not read").
func TestEmptyUserListIsReadEverywhere(t *testing.T) {
	for _, list := range emptyUserLists {
		t.Run(list, func(t *testing.T) {
			e := newVerbEnv(t)
			id := openTag(t, e, "empty-users")
			env := map[string]string{"VIGIL_CONFIG": swappedRequesterWithUsers(t, e, id, list)}
			code, out, errOut := runVigil(t, env, "", "activity", "get", id)
			wantExit(t, "activity get", code, exitOK, out, errOut)
			if !strings.Contains(out, "intent check: WARNING: NOT checked") {
				t.Errorf("activity get: alice's submission shown as bob's, the list read holds no bob: no NOT checked warning:\n%s", out)
			}
			code, out, errOut = runVigil(t, env, "", "activity", "get", "--json", id)
			wantExit(t, "activity get --json", code, exitOK, out, errOut)
			_, checks := splitChecks(t, out)
			if checks.IntentCheck == nil || checks.IntentCheck.State != api.IntentNotChecked {
				t.Errorf("activity get --json: intentCheck %+v, want %q", checks.IntentCheck, api.IntentNotChecked)
			}
			if strings.Contains(out, "was not read") {
				t.Errorf("activity get --json says the user list was not read, yet it was:\n%s", out)
			}
			code, out, errOut = runVigil(t, env, "", "activity", "approve", "--yes", "--profile", "bob", id)
			wantExit(t, "activity approve --yes", code, exitOK, out, errOut)
			if !strings.Contains(errOut, "vigil: warning: intent check: WARNING: NOT checked") {
				t.Errorf("activity approve --yes gives no intent warning:\n%s", errOut)
			}
		})
	}
}
