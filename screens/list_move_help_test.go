package screens

import (
	"slices"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/server/servertest"
)

// enabledHelpKeys are the keys the enabled bindings of the screen's full
// help name (split at "/").
func enabledHelpKeys(s Screen) []string {
	var out []string
	for _, col := range s.Keys().FullHelp() {
		for _, b := range col {
			if b.Enabled() {
				out = append(out, strings.Split(b.Help().Key, "/")...)
			}
		}
	}
	return out
}

// Every list moves a page and to its ends (pgup, pgdn, g, G, home, end):
// its full help names those keys, as Activities' does.
func TestListsHelpNameTheirPageAndEndKeys(t *testing.T) {
	d := servertest.StartDemo(t)
	h := memberConsole(t, d.Client("alice"))
	for _, s := range h.root.screens {
		ls, ok := s.(listScreen)
		if !ok || ls.filterList().IsOpen() {
			continue
		}
		named := enabledHelpKeys(s)
		for _, k := range []string{"pgup", "pgdn", "g", "G", "home", "end"} {
			if !slices.Contains(named, k) {
				t.Errorf("%s: its list moves with %s but the full help (%v) does not name it", s.Title(), k, named)
			}
		}
	}
}
