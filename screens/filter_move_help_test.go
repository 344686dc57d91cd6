package screens

import (
	"slices"
	"testing"

	"github.com/vigil-console/vigil/server/servertest"
)

// While a list's filter takes keys, ↑/↓ move the selection: the help shown
// then says so, on every list screen.
func TestFilterHelpNamesTheKeysThatMove(t *testing.T) {
	d := servertest.StartDemo(t)
	h := memberConsole(t, d.Client("alice"))
	for i, s := range h.root.screens {
		ls, ok := s.(listScreen)
		if !ok {
			continue
		}
		h.root.active = i
		h.key("/")
		if !ls.filterList().Filtering() {
			t.Errorf("%s: / opened no filter", s.Title())
			continue
		}
		own, _, _ := h.root.helpKeys()
		for _, k := range []string{"up", "down"} {
			var named bool
			for _, b := range own.ShortHelp() {
				named = named || (b.Enabled() && slices.Contains(b.Keys(), k))
			}
			if !named {
				t.Errorf("%s: %s moves the selection while filtering, but the filter's help does not name it", s.Title(), k)
			}
		}
		if tb := &ls.filterList().Table; tb.Visible() > 1 {
			before := tb.SelectedID()
			h.key("down")
			if tb.SelectedID() == before {
				t.Errorf("%s: ↓ in the filter did not move the selection", s.Title())
			}
		}
		h.key("esc")
	}
}
