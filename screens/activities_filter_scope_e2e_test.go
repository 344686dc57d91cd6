package screens

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// The `/` filter searches the loaded page only. On one page of a longer list
// an id typed there that no row matches must not read as "there is no such
// activity": the filter line and the empty list say which pages it did not
// search, and a list that is all there is says nothing of pages.
func TestFilterSaysItSearchedOnlyThisPage(t *testing.T) {
	d := servertest.StartDemo(t)
	backlog(t, d, pageSize+10)
	h := newHarnessWith(t, d.Client("alice"), d.Client("alice"), theme.Options{Dark: true, NoColor: true}, 0)
	h.send(tea.WindowSizeMsg{Width: 160, Height: 40})
	older := olderPendingPage(t, h)
	onOlder := older.items[len(older.items)-1].ID
	h.key("[")
	if h.activities().paged() {
		t.Fatalf("[ did not go back to the newest page")
	}

	// The newest page: an activity of the older page is not among its rows.
	h.key("/")
	h.typeText(onOlder)
	frame := h.frame()
	for _, want := range []string{"0 of 100 on this page; older pages not searched (])", "no rows on this page match: older pages not searched (])"} {
		if !strings.Contains(frame, want) {
			t.Errorf("filtering the newest page for %s, an older page's activity: no %q in\n%s", onOlder, want, frame)
		}
	}
	h.key("esc")

	// The older page, the oldest: only newer pages are left out.
	h.key("]")
	h.key("/")
	h.typeText("no such activity")
	if frame := h.frame(); !strings.Contains(frame, "on this page; newer pages not searched ([)") {
		t.Errorf("filtering the oldest page does not say newer pages were not searched:\n%s", frame)
	}
}

// A list that holds everything there is says nothing of pages.
func TestFilterOnWholeListSaysNothingOfPages(t *testing.T) {
	d := servertest.StartDemo(t)
	h := newHarnessWith(t, d.Client("alice"), d.Client("alice"), theme.Options{Dark: true, NoColor: true}, 0)
	h.send(tea.WindowSizeMsg{Width: 160, Height: 40})
	if a := h.activities(); a.older || a.paged() || len(a.items) == 0 {
		t.Fatalf("the demo's pending list: older %v, paged %v, %d rows; want one whole page", a.older, a.paged(), len(a.items))
	}
	h.key("/")
	h.typeText("no such activity")
	frame := h.frame()
	if !strings.Contains(frame, "no rows match the filter (esc clears it)") || strings.Contains(frame, "not searched") {
		t.Errorf("filtering the whole list to nothing:\n%s", frame)
	}
}
