package screens

import (
	"bytes"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// A proxy answers get_api_key for alice's key with bob's key's record: i
// on her key shows an error naming both ids, not bob's key as hers.
func TestGetAPIKeyAboutAnotherKeyIsAnErrorOnScreen(t *testing.T) {
	d := servertest.StartDemo(t)
	alice := d.Client("alice")
	keysOf := map[string][]api.APIKey{}
	for _, m := range d.Info.Members {
		u, err := alice.GetUser(t.Context(), m.UserID)
		if err != nil {
			t.Fatalf("%s's record: %v", m.Name, err)
		}
		keysOf[m.Name] = u.APIKeys
	}
	if len(keysOf["alice"]) == 0 || len(keysOf["bob"]) == 0 {
		t.Fatalf("set-up: alice or bob has no API key")
	}
	bobKey := keysOf["bob"][0].APIKeyID
	proxied := d.ClientAt(d.Rewriting(func(op string, _, reply []byte) []byte {
		if op != "query/"+api.QueryGetAPIKey {
			return reply
		}
		for _, k := range keysOf["alice"] {
			reply = bytes.ReplaceAll(reply, []byte(k.APIKeyID), []byte(bobKey))
		}
		return reply
	}), "alice")
	h := newHarnessWith(t, proxied, proxied, theme.Options{Dark: true, NoColor: true}, 0)
	h.send(tea.WindowSizeMsg{Width: 200, Height: 100})
	u := h.openUser("alice")
	asked := h.cursorToKeyWithoutPendingDeletion(u)
	h.key("i")
	want := "the reply is about another API key than " + asked + ": its id is " + bobKey
	if u.keyInfo != nil || !strings.Contains(u.keyErr, want) {
		t.Fatalf("i on alice's key %s answered with bob's %s: shown %+v, error %q; want the error %q", asked, bobKey, u.keyInfo, u.keyErr, want)
	}
	if f := h.plainFrame(); !strings.Contains(f, "another API key than") {
		t.Errorf("the error is not on screen:\n%s", f)
	}
}
