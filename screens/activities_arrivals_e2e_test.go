package screens

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui"
	"github.com/vigil-console/vigil/ui/theme"
)

// A member reading history (the All view, an older page of Pending) still
// learns that a new activity waits for their vote: with auto-refresh on, the
// first page of Pending is read in the background and the arrival told as
// the first page tells it, once. Against the local service; bob submits from
// the CLI.

// arrivalsHarness is alice's console over a backlog of n, with notify on.
func arrivalsHarness(t *testing.T, n int) (*servertest.Demo, *harness) {
	t.Helper()
	d := servertest.StartDemo(t)
	backlog(t, d, n)
	h := newHarnessWith(t, d.Client("alice"), d.Client("alice"), theme.Options{Dark: true, NoColor: true}, 5*time.Second)
	h.root.common.Notify = true
	return d, h
}

// bobSubmits has bob submit an activity that waits for the root quorum.
func bobSubmits(t *testing.T, d *servertest.Demo, label string) {
	t.Helper()
	act, err := d.Client("bob").CreateSmartContractInterface(context.Background(), api.CreateSmartContractInterfaceParams{
		SmartContractAddress: "0xabc", SmartContractInterface: "[]", Type: api.SmartContractInterfaceEthereum, Label: label})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("bob's %s: %v %+v", label, err, act)
	}
}

// waitNotices counts, in the messages since h.msgs was emptied, the notices
// that an activity waits for your vote and the terminal notifications.
func waitNotices(h *harness) (notices, bells int) {
	for _, m := range h.msgs {
		switch m := m.(type) {
		case ui.ToastMsg:
			if strings.Contains(m.Text, "by bob — waits for your vote") {
				notices++
			}
		case tea.RawMsg:
			if strings.Contains(fmt.Sprint(m.Msg), "\x1b]9;vigil: an activity waits for your vote\x07") {
				bells++
			}
		}
	}
	return notices, bells
}

// listShown is what the member reads: the view, the page and the row under
// the cursor.
type listShown struct {
	all            bool
	before, after  string
	first, last    string
	selected       string
	pendingRowsIDs []string
}

func shownList(a *Activities) listShown {
	s := listShown{all: a.all, before: a.before, after: a.after, first: a.first, last: a.last}
	if sel := a.selected(); sel != nil {
		s.selected = sel.ID
	}
	for _, it := range a.items {
		s.pendingRowsIDs = append(s.pendingRowsIDs, it.ID)
	}
	return s
}

// tickOnce delivers one auto-refresh tick, with the messages it brings alone
// in h.msgs.
func tickOnce(h *harness) {
	h.t.Helper()
	h.msgs = nil
	h.send(activitiesTickMsg{gen: h.activities().autoGen})
}

// In the All view, an activity that arrives for alice's vote is told, with
// the bell, once; the All view stays as it was.
func TestAllViewTellsArrivalWaitingForYourVote(t *testing.T) {
	d, h := arrivalsHarness(t, 4)
	h.key("v")
	a := h.activities()
	if !a.all {
		t.Fatal("v did not show the All view")
	}
	// Before any poll: what arrived is told against the first page as alice
	// last saw it.
	bobSubmits(t, d, "arrives in All")
	tickOnce(h)
	if n, b := waitNotices(h); n != 1 || b != 1 {
		t.Errorf("bob's new activity waits for alice's vote while she reads All: %d notices, %d bells (want 1, 1)", n, b)
	}
	if !a.all || a.paged() {
		t.Errorf("the poll changed the view: all %v, paged %v", a.all, a.paged())
	}
	tickOnce(h)
	if n, b := waitNotices(h); n+b != 0 {
		t.Errorf("the next refresh told the arrival again: %d notices, %d bells", n, b)
	}
}

// On an older page of Pending, the arrival is told, and the page, its rows
// and the cursor stay; back on the first page it is not told again.
func TestOlderPendingPageTellsArrivalOnceAcrossReturn(t *testing.T) {
	d, h := arrivalsHarness(t, pageSize+10)
	a := olderPendingPage(t, h)
	h.key("j")
	h.key("j")
	tickOnce(h)
	before := shownList(a)
	bobSubmits(t, d, "arrives while paging")
	tickOnce(h)
	if n, b := waitNotices(h); n != 1 || b != 1 {
		t.Errorf("bob's new activity waits for alice's vote while she reads an older page: %d notices, %d bells (want 1, 1)", n, b)
	}
	if after := shownList(a); !slices.Equal(after.pendingRowsIDs, before.pendingRowsIDs) || after.selected != before.selected ||
		after.before != before.before || after.after != before.after || after.all != before.all {
		t.Errorf("the poll changed what alice reads:\nbefore %+v\nafter  %+v", before, after)
	}
	h.msgs = nil
	for i := 0; i < 3 && a.paged(); i++ {
		h.key("[") // the arrival makes one more page of newer ones
	}
	if a.paged() {
		t.Fatalf("[ did not go back to the first page")
	}
	for range 2 {
		tickOnce(h)
		if n, b := waitNotices(h); n+b != 0 {
			t.Errorf("back on the first page, the arrival was told again: %d notices, %d bells", n, b)
		}
	}
}

// The arrival a poll told in the All view is not told again by the first
// page of Pending; with auto-refresh paused, nothing polls.
func TestArrivalToldOnceAndNotPolledWhenPaused(t *testing.T) {
	d, h := arrivalsHarness(t, 4)
	h.key("v")
	tickOnce(h)
	bobSubmits(t, d, "told in All")
	tickOnce(h)
	if n, _ := waitNotices(h); n != 1 {
		t.Fatalf("the arrival was told %d times in All (want 1)", n)
	}
	h.key("v") // back to Pending: the arrival is on its first page now
	for range 2 {
		tickOnce(h)
		if n, b := waitNotices(h); n+b != 0 {
			t.Errorf("Pending told the arrival All told: %d notices, %d bells", n, b)
		}
	}

	h.key("p") // auto-refresh paused
	if h.activities().auto() {
		t.Fatal("p did not pause auto-refresh")
	}
	h.key("v")
	bobSubmits(t, d, "arrives while paused")
	tickOnce(h)
	for _, m := range h.msgs {
		if _, ok := m.(pendingTopPolledMsg); ok {
			t.Errorf("with auto-refresh paused, the first page of Pending was polled")
		}
	}
	if n, b := waitNotices(h); n+b != 0 {
		t.Errorf("with auto-refresh paused: %d notices, %d bells", n, b)
	}
}
