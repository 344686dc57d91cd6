package screens

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// usersPaneText is the whole of the open record as the pane wraps it at the
// screen's width.
func usersPaneText(u *Users) string {
	pane := u.list.Pane // a copy: the screen's keeps its height and position
	pane.SetSize(u.width, 100000)
	return ansi.Strip(pane.View())
}

// The record's key blocks are memoised between keystrokes: a key deleted
// through the service and the list reloaded must be gone from the pane, and
// a narrower window must wrap every block again, not show the old wrapping.
func TestUsersRecordShowsTheKeysAsTheyAreAfterMovesAndResizes(t *testing.T) {
	d := servertest.StartDemo(t)
	ctx := context.Background()
	d.AddUserWithKeys("many-keys", 40, 3)
	h := demoHarness(t, d, nil)
	u := h.openUser("many-keys")
	for range 5 {
		h.key("down") // the blocks are rendered and memoised
	}
	gone := u.open.APIKeys[10] // not under the cursor
	if !strings.Contains(usersPaneText(u), gone.APIKeyID) {
		t.Fatalf("the key %s is not in the record:\n%s", gone.APIKeyID, usersPaneText(u))
	}

	act, err := d.Client("alice").DeleteAPIKeys(ctx, api.DeleteAPIKeysParams{UserID: u.open.UserID, APIKeyIDs: []string{gone.APIKeyID}})
	if err != nil {
		t.Fatal(err)
	}
	if done, err := d.Client("carol").ApproveActivity(ctx, act.Fingerprint); err != nil || done.Status != api.StatusCompleted {
		t.Fatalf("carol's approval: %v %+v", err, done)
	}
	// A deletion left pending: its note is a long line the pane word-wraps.
	if _, err := d.Client("alice").DeleteAPIKeys(ctx, api.DeleteAPIKeysParams{UserID: u.open.UserID, APIKeyIDs: []string{u.open.APIKeys[20].APIKeyID}}); err != nil {
		t.Fatal(err)
	}
	h.key("r")
	h.key("up")
	out := usersPaneText(u)
	if strings.Contains(out, gone.APIKeyID) {
		t.Errorf("the deleted key %s is still shown:\n%s", gone.APIKeyID, out)
	}
	if !strings.Contains(out, "API keys (39, 0 marked)") {
		t.Errorf("the record does not count 39 keys:\n%s", out)
	}
	for _, k := range u.open.APIKeys {
		if !strings.Contains(out, k.APIKeyID) {
			t.Errorf("the key %s is missing from the record", k.APIKeyID)
		}
	}

	h.send(tea.WindowSizeMsg{Width: 60, Height: 30})
	h.key("down")
	out = usersPaneText(u)
	// The same record opened in a console that was 60 wide from the start.
	fresh := demoHarness(t, d, nil)
	fresh.send(tea.WindowSizeMsg{Width: 60, Height: 30})
	f := fresh.openUser("many-keys")
	for range u.cursor {
		fresh.key("down")
	}
	if got, want := withoutAges(out), withoutAges(usersPaneText(f)); got != want {
		t.Errorf("made narrower, the record is not wrapped as one opened at that width:\n%s\nwant:\n%s", got, want)
	}
	joined := strings.NewReplacer("\n", "", " ", "", "↩", "").Replace(out)
	for _, k := range u.open.APIKeys {
		if !strings.Contains(joined, k.Credential.PublicKey) {
			t.Errorf("the public key of %s is not shown whole once wrapped", k.APIKeyID)
		}
	}
}
