package screens

import (
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// An arrival pushes the activity open in the detail to the older page: the
// cursor, under the detail, moves to another row unsaid while a, x and enter
// act on the open activity. Back on the list (esc) they act on that other
// row, which the member did not open: closing the detail says so. Against
// the local service.
func TestClosingADetailWhoseRowLeftSaysTheCursorIsOnAnotherRow(t *testing.T) {
	d, h, a := consoleOnFullPendingPage(t)
	opened := a.items[pageSize-1] // the oldest of the page: an arrival pushes it to the older page
	h.selectActivityID(opened.ID)
	h.key("enter")
	if a.detail == nil || a.detail.activity.ID != opened.ID {
		t.Fatal("setup: enter did not open the selected activity")
	}
	sel := pushOutAndCloseDetail(t, d, h, a, opened.ID)
	said := false
	for _, text := range toastsOf(h) {
		if strings.Contains(text, "the activity you had open left this page") && strings.Contains(text, "the cursor is on another row") {
			said = true
		}
	}
	if !said {
		t.Errorf("back on the list, the cursor is on %s, not the activity that was open (%s), and nothing says so: %q", sel.ID, opened.ID, toastsOf(h))
	}

	// A detail whose row stayed goes back to it, and says nothing.
	h.key("enter")
	h.msgs = nil
	h.key("esc")
	for _, text := range toastsOf(h) {
		if strings.Contains(text, "the activity you had open left") {
			t.Errorf("closing a detail whose row stayed says it left: %q", text)
		}
	}
}

// An activity another screen hands over (a submit, a webhook delivery)
// opens over the list too, or over a detail opened with enter before
// going to that screen: the row
// under the cursor may leave unsaid while it is open, and back on the list
// a, x and enter act on another row than the one the member left the
// cursor on. Closing it says so.
func TestClosingAHandedDetailSaysTheCursorRowLeft(t *testing.T) {
	for _, overDetail := range []bool{false, true} {
		d, h, a := consoleOnFullPendingPage(t)
		under := a.items[pageSize-1] // the oldest of the page: an arrival pushes it to the older page
		handed := a.items[0]
		h.selectActivityID(under.ID)
		if overDetail {
			h.key("enter")
			h.key("@Policies") // a submit there hands its activity over
		}
		h.send(ShowActivityMsg{ID: handed.ID, Activity: &handed})
		if a.detail == nil || a.detail.activity.ID != handed.ID {
			t.Fatal("setup: the handed activity is not open")
		}
		sel := pushOutAndCloseDetail(t, d, h, a, under.ID)
		said := false
		for _, text := range toastsOf(h) {
			if strings.Contains(text, "the activity under the cursor left this page while another was open") && strings.Contains(text, "the cursor is on another row") {
				said = true
			}
		}
		if !said {
			t.Errorf("over a detail %v: back on the list, the cursor is on %s, not the row it was left on (%s), and nothing says so: %q", overDetail, sel.ID, under.ID, toastsOf(h))
		}

		// Handed over while the list's cursor stays where it was: nothing to say.
		h.send(ShowActivityMsg{ID: handed.ID, Activity: &handed})
		h.msgs = nil
		h.key("esc")
		for _, text := range toastsOf(h) {
			if strings.Contains(text, "left this page") {
				t.Errorf("over a detail %v: closing a detail while the cursor's row stayed says it left: %q", overDetail, text)
			}
		}
	}
}

// pushOutAndCloseDetail has one activity arrive, which pushes pushed (the
// oldest row of the full page) to the older page, refreshes the list, and
// closes the open detail (esc) with the messages cleared first, so that
// toastsOf(h) holds what closing it said. It returns the row the cursor is
// on then, another than pushed.
func pushOutAndCloseDetail(t *testing.T, d *servertest.Demo, h *harness, a *Activities, pushed string) *api.Activity {
	t.Helper()
	backlog(t, d, 1)
	h.send(activitiesTickMsg{gen: a.autoGen}) // the refresh, and the final record
	if listed(a, pushed) {
		t.Fatal("setup: the activity pushed to the older page is still listed")
	}
	h.msgs = nil
	h.key("esc")
	if a.detail != nil {
		t.Fatal("esc did not close the detail")
	}
	sel := a.selected()
	if sel == nil || sel.ID == pushed {
		t.Fatalf("setup: the cursor is on %+v, not on another row", sel)
	}
	return sel
}
