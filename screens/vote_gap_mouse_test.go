package screens

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// A wheel turn or a click that arrives in the same input burst as the "a"
// that asked for the vote dialog (before the dialog's OpenDialogMsg) is
// dropped, as keys typed in that gap are (dialogAwaited): the dialog opens
// over the list still highlighting the activity it votes on.
func TestMouseBeforeTheVoteDialogArrivesIsDropped(t *testing.T) {
	for _, tc := range []struct {
		name string
		msg  func(h *harness) tea.Msg
	}{
		{"wheel", func(*harness) tea.Msg { return tea.MouseWheelMsg{X: 10, Y: 10, Button: tea.MouseWheelDown} }},
		{"tab click", func(h *harness) tea.Msg {
			_, spans := h.root.tabBar()
			return tea.MouseClickMsg{X: spans[3][0] + 1, Y: 0, Button: tea.MouseLeft}
		}},
		{"click", func(*harness) tea.Msg { return tea.MouseClickMsg{X: 10, Y: 6, Button: tea.MouseLeft} }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := servertest.StartDemo(t)
			bob := d.Client("bob")
			h := newHarnessWith(t, bob, bob, theme.Options{Dark: true, NoColor: true}, 0)
			h.key("j") // the second row
			before := h.activities().selected().ID
			h.armDialogs()
			_, cmd := h.root.Update(keyPress("a")) // the program runs this command; its message comes later
			pending := collect(cmd)
			h.send(tc.msg(h)) // the mouse event already queued behind the key
			for _, m := range pending {
				h.send(m)
			}
			if !h.voteDialogOpen() {
				t.Fatalf("no vote dialog:\n%s", h.frame())
			}
			if h.root.active != 0 {
				t.Fatalf("the vote dialog opened over %s, not over the activity it votes on:\n%s", h.root.screens[h.root.active].Title(), h.frame())
			}
			a := h.activities()
			if now := a.selected().ID; now != a.asking.vote.id {
				t.Errorf("vote dialog for %s (highlighted when a was pressed: %s) opened over a list highlighting %s:\n%s",
					a.asking.vote.id, before, now, h.frame())
			}
		})
	}
}
