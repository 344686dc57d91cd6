package screens

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/server/servertest"
)

// At the smallest window the console draws (and at 60×20), the full help of
// every screen, and of an open activity (the longest), shows every key it
// lists: none is cut off the frame's foot, where ? (which closes it) and q are.
func TestFullHelpInASmallWindowShowsEveryKey(t *testing.T) {
	d := servertest.StartDemo(t)
	h := memberConsole(t, d.Client("alice"))
	check := func(what string) {
		t.Helper()
		h.key("?")
		defer h.key("?")
		frame := h.frame()
		own, _, globalFull := h.root.helpKeys()
		for _, col := range append(own.FullHelp(), globalFull...) {
			for _, b := range col {
				if b.Help().Key == "" || len(b.Keys()) == 0 {
					continue
				}
				if item := b.Help().Key + " " + b.Help().Desc; !strings.Contains(frame, item) {
					t.Errorf("%s at %dx%d: the full help lacks %q:\n%s", what, h.root.width, h.root.height, item, frame)
				}
			}
		}
	}
	for _, size := range [][2]int{{minWidth, minHeight}, {60, 20}} {
		h.send(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		for i := range h.root.screens {
			h.key(string(rune('1' + i)))
			check(h.root.screens[i].Title())
		}
		h.key("1")
		h.key("enter")
		if h.activities().detail == nil {
			t.Fatal("no activity open")
		}
		check("an open activity")
		h.key("esc")
	}
}
