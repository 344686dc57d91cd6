package screens

import (
	"slices"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"

	"github.com/vigil-console/vigil/server/servertest"
)

// helpBindings is every binding of the screen's full help, by its help text.
func helpBindings(s Screen) map[string]key.Binding {
	out := map[string]key.Binding{}
	for _, col := range s.Keys().FullHelp() {
		for _, b := range col {
			out[b.Help().Desc] = b
		}
	}
	return out
}

// In an open activity the full help shows the list's keys struck through,
// as docs/console.md says, and names every key that scrolls the record; the
// list's keys say why they do nothing, and n, shown enabled, opens the
// operation forms.
func TestOpenActivityHelpMatchesItsKeys(t *testing.T) {
	d := servertest.StartDemo(t)
	h := memberConsole(t, d.Client("alice"))
	h.key("enter")
	if h.activities().detail == nil {
		t.Fatal("no activity open")
	}
	help := helpBindings(h.activities())
	for _, desc := range []string{"pending/all", "status filter", "type filter", "sort by next column", "reverse sort", "older page", "newer page"} {
		b, ok := help[desc]
		switch {
		case !ok:
			t.Errorf("full help of an open activity does not show %q (docs: struck through)", desc)
		case b.Enabled():
			t.Errorf("%q is shown enabled in an open activity", desc)
		}
	}
	if b, ok := help["new operation"]; !ok || !b.Enabled() {
		t.Errorf("n (new operation) acts in an open activity but its help does not show it enabled")
	}
	var named []string
	for _, b := range help {
		if b.Enabled() {
			named = append(named, strings.Split(b.Help().Key, "/")...)
		}
	}
	for _, k := range []string{"space", "ctrl+d", "ctrl+u"} {
		if !slices.Contains(named, k) {
			t.Errorf("%s scrolls the open activity but its help (%v) does not name it", k, named)
		}
	}
	for _, k := range []string{"o", "O", "v", "s", "t", "]", "["} {
		n := len(h.msgs)
		h.key(k)
		if len(h.msgs) == n || !strings.Contains(h.frame(), k+" (") || !strings.Contains(h.frame(), "works on the list, not in an open activity") {
			t.Errorf("%s in an open activity does not say it works on the list", k)
		}
	}
	h.key("n")
	if top := h.root.dialogs.Top(); top == nil || top.ID() != "palette" {
		t.Errorf("n in an open activity opened %v, not the operation forms", top)
	}
}
