package screens

import (
	"encoding/json"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// A proxy breaks list_users and shows the operator's signed request as
// bob's (vote 0's user id swapped). With no user list, the console cannot
// tell whose key signed the submission: the intent is only partly checked,
// saying the requester is not checked to be the signer, never "the ones
// its requester signed"; not a warning either, as an honest organization
// whose list cannot be read would see the same. The vote dialog marks the
// requester's name as the vote's word.
func TestConsoleIntentPartlyCheckedWithoutTheUserList(t *testing.T) {
	d := servertest.StartDemo(t)
	a := votedTagFor(t, d, "unread-users")
	operatorID, bobID := memberIDOf(t, d, "operator"), memberIDOf(t, d, "bob")
	proxy := d.Rewriting(func(op string, request, reply []byte) []byte {
		if op == "query/"+api.QueryListUsers {
			return []byte(`{"users":[{"userId":1}`)
		}
		if op != "query/"+api.QueryGetActivity || !strings.Contains(string(request), a.ID) {
			return reply
		}
		var m map[string]map[string]any
		if json.Unmarshal(reply, &m) != nil {
			return reply
		}
		for _, v := range m["activity"]["votes"].([]any) {
			if v := v.(map[string]any); v["userId"] == operatorID {
				v["userId"], v["user"] = bobID, map[string]any{"userId": bobID, "userName": "bob"}
			}
		}
		out, _ := json.Marshal(m)
		return out
	})
	carol := d.ClientAt(proxy, "carol", api.WithExactStrings())
	h := newHarnessWith(t, carol, carol, theme.Options{Dark: true, NoColor: true}, 0)
	h.send(tea.WindowSizeMsg{Width: 200, Height: 300})
	h.selectActivityID(a.ID)
	h.key("enter")
	text := spaced(h.detailText())
	if !strings.Contains(text, "intent partly checked:") || !strings.Contains(text, "user list was not read") ||
		!strings.Contains(text, "not checked to be the member who signed it") {
		t.Errorf("without the user list, the detail does not say the requester is not checked to be the signer:\n%s", text)
	}
	if strings.Contains(text, "intent NOT checked") {
		t.Errorf("without the user list, the detail warns as if the intent were not bound:\n%s", text)
	}
	// The requester's vote agrees with the intent line: what the key
	// signed, not that the requester signed it.
	if strings.Contains(text, "its requester signed") || !strings.Contains(text, "the ones that key signed; not checked to be the requester's") {
		t.Errorf("without the user list, the requester's vote says the requester signed the intent, or not what the key signed:\n%s", text)
	}
	h.key("a")
	if !h.voteDialogOpen() {
		t.Fatalf("set-up: no approve dialog:\n%s", h.frame())
	}
	f := spaced(h.frame())
	if !strings.Contains(f, "(as the vote says; the console holds no user list)") {
		t.Errorf("the vote dialog does not mark the requester as the vote's word:\n%s", f)
	}
	if strings.Contains(f, "WARNING: vigil cannot check") {
		t.Errorf("the vote dialog warns without the user list:\n%s", f)
	}
}
