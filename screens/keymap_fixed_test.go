package screens

import (
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/server/servertest"
)

// No action, of any screen or global, may be rebound onto a key a screen
// answers without it (a list's movement or filter, a pane's scrolling):
// approve on ↓ would open the vote dialog at a turn of the mouse wheel.
func TestRebindRefusesAScreensFixedKeys(t *testing.T) {
	r := NewRoot(Options{})
	global, perScreen := r.keyActions()
	check := func(a KeyAction, s int) {
		for i, sc := range r.screens {
			fk, ok := sc.(fixedKeyed)
			if !ok || (s >= 0 && i != s) {
				continue
			}
			for _, b := range fk.fixedKeys() {
				for _, k := range b.Keys() {
					if slices.Contains(a.Binding.Keys(), k) {
						continue // its own default (Users' next_key is ↓/j)
					}
					err := r.Rebind(map[string][]string{a.Name: {k}})
					if err == nil {
						t.Errorf("%s = [%q] accepted, although %q is %s's %s (%s)", a.Name, k, k, sc.Title(), b.Help().Key, b.Help().Desc)
						return
					}
					for _, w := range []string{a.Name, `"` + k + `"`, "fixed key"} {
						if !strings.Contains(err.Error(), w) {
							t.Errorf("%s = [%q]: %q does not say %q", a.Name, k, err, w)
						}
					}
				}
			}
		}
	}
	for _, a := range global {
		check(a, -1)
	}
	for s, acts := range perScreen {
		for _, a := range acts {
			check(a, s)
		}
	}
	// Every action keeps its defaults.
	for _, acts := range append([][]KeyAction{global}, perScreen...) {
		for _, a := range acts {
			if err := r.Rebind(map[string][]string{a.Name: a.Binding.Keys()}); err != nil {
				t.Errorf("%s's default keys refused: %v", a.Name, err)
			}
		}
	}
}

// The config's check refuses approve on the list's keys, naming the key and
// what has it; the console then moves with ↓ and the wheel as help says.
func TestApproveCannotTakeTheListsKeys(t *testing.T) {
	for k, owner := range map[string]string{"down": "↓/j", "j": "↓/j", "/": "filter", "g": "top", "space": "page down"} {
		err := CheckKeys(map[string][]string{"activities.approve": {k}})
		if err == nil || !strings.Contains(err.Error(), `"`+k+`"`) || !strings.Contains(err.Error(), owner) {
			t.Errorf("activities.approve = [%q]: %v, want it refused naming %q and %q", k, err, k, owner)
		}
	}
	d := servertest.StartDemo(t)
	h := memberConsole(t, d.Client("alice"))
	if err := h.root.Rebind(map[string][]string{"activities.approve": {"down"}}); err == nil {
		t.Fatal("Rebind accepted approve = [\"down\"]")
	}
	h.key("down")
	h.send(tea.MouseWheelMsg{X: 10, Y: 5, Button: tea.MouseWheelDown})
	if h.voteDialogOpen() {
		t.Error("↓ or the wheel opened the vote dialog")
	}
}
