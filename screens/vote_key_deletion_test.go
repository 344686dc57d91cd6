package screens

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// Another member proposes deleting the API key bob's console signs with;
// bob opens the vote dialog on it. His approval completes the deletion and
// locks his console out, yet the dialog says nothing of it (the Users
// screen's confirm of the same deletion warns "!! … is the key this console
// signs with").
func TestVoteOnDeletionOfOwnKeyWarns(t *testing.T) {
	d := servertest.StartDemo(t)
	ctx := t.Context()
	var bobID string
	for _, m := range d.Info.Members {
		if m.Name == "bob" {
			bobID = m.UserID
		}
	}
	bob := d.Client("bob")
	own := bob.Stamper().(interface{ PublicKeyHex() string }).PublicKeyHex()
	user, err := d.Client("alice").GetUser(ctx, bobID)
	if err != nil {
		t.Fatal(err)
	}
	var keyID string
	for _, k := range user.APIKeys {
		if k.HasPublicKey("", own) {
			keyID = k.APIKeyID
		}
	}
	act, err := d.Client("alice").DeleteAPIKeys(ctx, api.DeleteAPIKeysParams{UserID: bobID, APIKeyIDs: []string{keyID}})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("propose: %+v %v", act, err)
	}
	h := newHarnessWith(t, bob, bob, theme.Options{Dark: true, NoColor: true}, 30*time.Second)
	h.root.common.OwnPublicKey = own // as the console signed in with bob's key has it
	h.send(tea.WindowSizeMsg{Width: 160, Height: 60})
	h.selectActivityID(act.ID)
	h.key("a")
	f := h.frame()
	for _, want := range []string{"is the key this console signs with", "no credential that can sign"} {
		if !strings.Contains(f, want) {
			t.Errorf("approving the deletion of the key this console signs with (approval completes it) does not say %q:\n%s", want, f)
		}
	}
}
