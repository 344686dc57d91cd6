package screens

import (
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// pageIDs are the ids of the page the Activities screen shows.
func pageIDs(a *Activities) []string {
	ids := make([]string, len(a.items))
	for i, it := range a.items {
		ids[i] = it.ID
	}
	return ids
}

// On an older page reached back with [, a failed look for newer activities
// keeps the page (it is not taken for the newest, which would throw the user
// paging through history to the top) and the title says the look failed.
func TestEndToEndNewerProbeFailureKeepsTheOlderPage(t *testing.T) {
	d := servertest.StartDemo(t)
	backlog(t, d, 10)
	n := newCutNetwork(t, d.URL)
	alice := probesCut{shortPages{d.Client("alice"), 4}, d.ClientAt(n.URL, "alice")}
	h := newHarnessWith(t, alice, alice, theme.Options{Dark: true, NoColor: true}, 0)
	h.send(tea.WindowSizeMsg{Width: 160, Height: 30})
	a := h.activities()
	newest := pageIDs(a)
	h.key("]")
	second := pageIDs(a)
	h.key("]")
	if !a.paged() || len(second) == 0 || len(pageIDs(a)) == 0 || slices.Equal(second, newest) {
		t.Fatalf("three pages of 4 pending: paged %v, second page %v, third %v", a.paged(), second, pageIDs(a))
	}

	n.down.Store(true)
	h.key("[")
	if got := pageIDs(a); !a.paged() || !slices.Equal(got, second) {
		t.Fatalf("[ with the look for newer ones failing: paged %v, rows %v, want the second page %v (the newest is %v):\n%s",
			a.paged(), got, second, newest, h.plainFrame())
	}
	if title := titleLine(h); !strings.Contains(title, "newer: unknown") || !strings.Contains(title, "(probe failed: ") {
		t.Errorf("the failed look for newer activities is not said in the title:\n%s", title)
	}

	n.down.Store(false)
	h.key("r")
	title := titleLine(h)
	if got := pageIDs(a); !a.paged() || !slices.Equal(got, second) || strings.Contains(title, "unknown") || !strings.Contains(title, "older page") {
		t.Errorf("r with the network back: paged %v, rows %v (want %v), title:\n%s", a.paged(), got, second, title)
	}
}

// The All view, with or without a filter, says that whether older
// activities follow is unknown when the look for them fails, as Pending
// does, and says it whole at 80 columns.
func TestEndToEndAllViewSaysOlderUnknownWhenProbeFails(t *testing.T) {
	d := servertest.StartDemo(t)
	backlog(t, d, 6)
	n := newCutNetwork(t, d.URL)
	n.down.Store(true)
	alice := probesCut{shortPages{d.Client("alice"), 4}, d.ClientAt(n.URL, "alice")}
	h := newHarnessWith(t, alice, alice, theme.Options{Dark: true, NoColor: true}, 0)
	h.key("v")
	a := h.activities()
	if !a.all || a.err != "" || len(a.items) == 0 {
		t.Fatalf("the All view: all %v, %d rows, error %q", a.all, len(a.items), a.err)
	}
	views := []struct {
		name     string
		statuses []string
	}{{"no filter", nil}, {"status filter", []string{api.StatusConsensusNeeded}}}
	for _, v := range views {
		if v.statuses != nil {
			h.send(filterPickedMsg{kind: "status", values: v.statuses})
		}
		h.send(tea.WindowSizeMsg{Width: 200, Height: 30})
		if title := titleLine(h); !strings.Contains(title, "older: unknown") || !strings.Contains(title, "(probe failed: ") {
			t.Errorf("%s: a failed look for older activities is not said in the All view's title:\n%s", v.name, title)
		}
		h.send(tea.WindowSizeMsg{Width: 80, Height: 30})
		if title := titleLine(h); !strings.Contains(title, "older: unknown") || ansi.StringWidth(title) > 80 {
			t.Errorf("%s: at 80 columns the All view's title does not say older: unknown whole:\n%s", v.name, title)
		}
	}

	n.down.Store(false)
	h.key("r")
	if title := titleLine(h); strings.Contains(title, "unknown") {
		t.Errorf("the next refresh, with the network back, still says unknown:\n%s", title)
	}
}
