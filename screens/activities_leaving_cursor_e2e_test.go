package screens

import (
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// Two arrivals push the two oldest activities of a full Pending page to the
// older page while the cursor is on the first of them. The cursor must land
// on a row that stays, said once: not on the other leaving row, whose own
// removal a moment later would move it again with a second notice, the first
// then naming a row the cursor no longer is on. Against the local service.
func TestCursorLeavingWithNeighbourLandsOnceOnARowThatStays(t *testing.T) {
	d, h, a := consoleOnFullPendingPage(t)
	first, second := a.items[pageSize-2], a.items[pageSize-1]
	stays := a.items[pageSize-3].ID // the newest row older arrivals leave on the page
	h.selectActivityID(first.ID)
	backlog(t, d, 2)
	h.msgs = nil
	h.send(activitiesTickMsg{gen: a.autoGen}) // the refresh, and both final records
	if listed(a, first.ID) || listed(a, second.ID) {
		t.Fatalf("setup: the activities pushed to the older page are still listed")
	}
	var said []string
	for _, text := range toastsOf(h) {
		if strings.Contains(text, "the activity under the cursor left") {
			said = append(said, text)
		}
	}
	if len(said) != 1 {
		t.Errorf("one move of the cursor was told %d times: %q", len(said), said)
	}
	if sel := a.selected(); sel == nil || sel.ID != stays {
		t.Errorf("the cursor is on %+v, want %s, the last row that stays", sel, stays)
	}
	if len(said) > 0 && !strings.Contains(said[len(said)-1], "last row") {
		t.Errorf("the notice does not say the cursor is on the last row that stays: %q", said[len(said)-1])
	}
}

// consoleOnFullPendingPage starts the local service with a full page of
// pending activities (pageSize) and a console on its Activities screen as
// alice, whose first page holds them all.
func consoleOnFullPendingPage(t *testing.T) (*servertest.Demo, *harness, *Activities) {
	t.Helper()
	d := servertest.StartDemo(t)
	backlog(t, d, pageSize)
	h := newHarnessWith(t, d.Client("alice"), d.Client("alice"), theme.Options{Dark: true, NoColor: true}, 5*time.Second)
	a := h.activities()
	if len(a.items) != pageSize {
		t.Fatalf("setup: %d rows on the first page, want %d", len(a.items), pageSize)
	}
	return d, h, a
}
