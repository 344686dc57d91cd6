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

// deleteOwnKey deletes, through alice and bob, the key member signs with;
// it returns that key's id.
func deleteOwnKey(t *testing.T, d *servertest.Demo, member string) string {
	t.Helper()
	ctx := t.Context()
	own := d.Client(member).Stamper().(interface{ PublicKeyHex() string }).PublicKeyHex()
	var userID, keyID string
	for _, m := range d.Info.Members {
		if m.Name == member {
			userID = m.UserID
		}
	}
	alice := d.Client("alice")
	user, err := alice.GetUser(ctx, userID)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range user.APIKeys {
		if k.HasPublicKey("", own) {
			keyID = k.APIKeyID
		}
	}
	if keyID == "" {
		t.Fatalf("%s's user has no key %s", member, own)
	}
	act, err := alice.DeleteAPIKeys(ctx, api.DeleteAPIKeysParams{UserID: userID, APIKeyIDs: []string{keyID}})
	if err != nil {
		t.Fatal(err)
	}
	if act.Status != api.StatusCompleted {
		if act, err = d.Client("bob").ApproveActivity(ctx, act.Fingerprint); err != nil || act.Status != api.StatusCompleted {
			t.Fatalf("the deletion did not complete: %+v %v", act, err)
		}
	}
	return keyID
}

// Other members delete the key the console signs with while it shows a
// pending activity; the console's vote on it is refused (UNKNOWN_KEY). That
// refusal locks the console out as a refused read does: the same remedy,
// and the auto-refresh stops, as every poll could only fail.
func TestEndToEndVoteRefusedForADeletedKeyLocksTheConsoleOut(t *testing.T) {
	d := servertest.StartDemo(t)
	act, err := d.Client("alice").CreateUserTag(t.Context(), api.CreateUserTagParams{UserTagName: "vote-after-deletion", UserIDs: []string{d.Info.Members[0].UserID}})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("propose: %+v %v", act, err)
	}
	c := d.Client("operator")
	h := newHarnessWith(t, c, c, theme.Options{Dark: true, NoColor: true}, 30*time.Second)
	h.send(tea.WindowSizeMsg{Width: 160, Height: 48})
	h.selectActivityID(act.ID)
	deleteOwnKey(t, d, "operator")

	h.key("a")
	h.key("y")
	if h.root.common.LockedOut == "" || !strings.Contains(h.root.common.LockedOut, lockedOutAdvice) {
		t.Fatalf("the vote refused for the deleted key does not lock the console out (%q):\n%s", h.root.common.LockedOut, h.frame())
	}
	if !h.toasted(lockedOutAdvice) {
		t.Errorf("no toast says the console is locked out and how to sign in again:\n%s", h.frame())
	}
	if st := h.activities().Status(); st.AutoRefresh != 0 {
		t.Errorf("the auto-refresh still runs (every %v) after the refused vote", st.AutoRefresh)
	}
	if cmd := h.activities().tick(); cmd != nil {
		t.Errorf("the Activities screen still schedules polls after the refused vote")
	}
}
