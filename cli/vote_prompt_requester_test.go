//go:build linux

package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// The vote prompt of 'activity approve' names the requester by
// the requester's vote's own "user" label (activityRequester), which no
// signature covers, unmarked: a proxy that renames alice's vote "mallory"
// has bob asked to approve mallory's request.
func TestVotePromptNamesTheRequesterFromTheUserList(t *testing.T) {
	e := newVerbEnv(t)
	code, out, errOut := e.run("", "tag", "create", "--name", "relabelled", e.userID("operator"))
	wantExit(t, "tag create", code, 0, out, errOut)
	id := activityIDFrom(t, out)
	alice := e.userID("alice")
	via := e.via(servertest.Rewrite(func(op string, request, reply []byte) []byte {
		if op != "query/"+api.QueryGetActivity {
			return reply
		}
		var m map[string]any
		if json.Unmarshal(reply, &m) != nil {
			return reply
		}
		act, _ := m["activity"].(map[string]any)
		for _, v := range act["votes"].([]any) {
			if v := v.(map[string]any); v["userId"] == alice {
				v["user"].(map[string]any)["userName"] = "mallory"
			}
		}
		b, _ := json.Marshal(m)
		return b
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
