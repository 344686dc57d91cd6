package screens

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// Every list that refreshes itself keeps "a, x and enter never fall to
// another row" (docs/console.md): on an older page of Pending (]) and in
// the All view with a status filter, as on the first page. Against the local
// service; another member settles the activity from the CLI.

// On the older page, the activity under the cursor settles elsewhere: the
// refresh keeps it under the cursor with its final status, so a votes on
// nothing else.
func TestOlderPendingPageKeepsSettledActivityUnderCursor(t *testing.T) {
	d := servertest.StartDemo(t)
	backlog(t, d, pageSize+10)
	h := newHarnessWith(t, d.Client("alice"), d.Client("alice"), theme.Options{Dark: true, NoColor: true}, 5*time.Second)
	a := olderPendingPage(t, h)
	target := bobsActivity(t, a, 1)
	h.selectActivityID(target.ID)
	settleElsewhere(t, d, target)
	h.msgs = nil
	h.send(activitiesTickMsg{gen: a.autoGen})
	sel := a.selected()
	if sel == nil || sel.ID != target.ID {
		t.Fatalf("the activity under the cursor (%s) settled elsewhere; the refresh moved the cursor to another row:\n%s", target.ID, h.plainFrame())
	}
	if sel.Status == api.StatusConsensusNeeded {
		t.Errorf("the row under the cursor still shows %s pending after carol completed it", target.ID)
	}
	if !h.toasted("completed after carol's approval") {
		t.Errorf("nothing said the activity completed")
	}
	h.msgs = nil
	h.key("a")
	if h.voteDialogOpen() {
		t.Errorf("a on the completed activity opened a vote dialog:\n%s", h.plainFrame())
	}
}

// On the older page, the vote dialog is open when its activity settles
// elsewhere: the refresh closes it with a notice, and y sends nothing.
func TestOlderPendingPageVoteDialogClosesWhenActivitySettles(t *testing.T) {
	dialogClosesWhenActivitySettles(t, pageSize+10, olderPendingPage)
}

// In the All view filtered to pending activities, the activity under the
// cursor completes elsewhere and leaves the list: the cursor goes to the row
// that followed it, not the first, and a notice says so.
func TestAllViewFilterSaysCursorMovedToNeighbour(t *testing.T) {
	cursorToNeighbour(t, false)
}

// The same with a new activity arriving at the top (the newest first) in the
// refresh that takes the row away: the cursor still goes to the row that
// followed it, not to the row before, which the arrival shifted down.
func TestAllViewFilterCursorFollowsNeighbourPastArrival(t *testing.T) {
	cursorToNeighbour(t, true)
}

func cursorToNeighbour(t *testing.T, arrival bool) {
	d := servertest.StartDemo(t)
	backlog(t, d, 8)
	h := newHarnessWith(t, d.Client("alice"), d.Client("alice"), theme.Options{Dark: true, NoColor: true}, 5*time.Second)
	a := pendingInAllView(t, h)
	target := bobsActivity(t, a, 2)
	h.selectActivityID(target.ID)
	i := a.list.Table.Selected()
	if i+1 >= len(a.items) {
		t.Fatalf("no row after %s", target.ID)
	}
	next, top := a.items[i+1].ID, a.items[0].ID
	settleElsewhere(t, d, target)
	if arrival {
		backlog(t, d, 1)
	}
	h.msgs = nil
	h.send(activitiesTickMsg{gen: a.autoGen})
	if arrival && (len(a.items) == 0 || a.items[0].ID == top) {
		t.Fatalf("the refresh did not list the new activity at the top")
	}
	sel := a.selected()
	if sel == nil || sel.ID == target.ID {
		t.Fatalf("the completed activity is still under the cursor in a view filtered to pending: %+v", sel)
	}
	if sel.ID != next {
		t.Errorf("the cursor fell to %s, not to the row that followed the one that left (%s):\n%s", sel.ID, next, h.plainFrame())
	}
	if !h.toasted("the activity under the cursor left the list") || !h.toasted("the cursor moved to the row that followed it") {
		t.Errorf("the cursor moved to the row that followed the one that left, and no notice said so")
	}
}

// In the All view filtered to pending activities, the vote dialog is open
// when its activity completes elsewhere and leaves the list: its record is
// read, the dialog closes with a notice and y sends nothing.
func TestAllViewFilterVoteDialogClosesWhenActivityLeaves(t *testing.T) {
	dialogClosesWhenActivitySettles(t, 4, pendingInAllView)
}

// dialogClosesWhenActivitySettles opens the vote dialog on one of bob's
// activities in the view open gives (over a backlog of n), settles the
// activity elsewhere and checks that the next refresh withdraws the dialog.
func dialogClosesWhenActivitySettles(t *testing.T, n int, open func(*testing.T, *harness) *Activities) {
	t.Helper()
	d := servertest.StartDemo(t)
	backlog(t, d, n)
	h := newHarnessWith(t, d.Client("alice"), d.Client("alice"), theme.Options{Dark: true, NoColor: true}, 5*time.Second)
	a := open(t, h)
	target := bobsActivity(t, a, 0)
	h.selectActivityID(target.ID)
	h.key("a")
	if !h.voteDialogOpen() {
		t.Fatalf("a opened no vote dialog:\n%s", h.plainFrame())
	}
	settleElsewhere(t, d, target)
	h.msgs = nil
	h.send(activitiesTickMsg{gen: a.autoGen})
	assertDialogWithdrawn(t, h, target.ID)
}

// assertDialogWithdrawn checks that the vote dialog on id closed saying
// nothing was sent, and that y then sends no vote.
func assertDialogWithdrawn(t *testing.T, h *harness, id string) {
	t.Helper()
	open := h.voteDialogOpen()
	frame := h.plainFrame()
	said := h.toasted("nothing was sent") && h.toasted("completed")
	h.msgs = nil
	for range 40 { // read it to the end, and answer
		h.key("down")
	}
	h.key("y")
	for _, m := range h.msgs {
		if v, ok := m.(activityVotedMsg); ok && v.id == id {
			t.Errorf("y sent a vote on %s, which completed while its dialog was open", id)
		}
	}
	if open || !said {
		t.Errorf("%s completed elsewhere; the dialog is still open: %v, a notice said nothing was sent: %v:\n%s", id, open, said, frame)
	}
}

// olderPendingPage pages to the older page of Pending.
func olderPendingPage(t *testing.T, h *harness) *Activities {
	t.Helper()
	if !h.activities().older {
		t.Fatalf("the first page does not say older pending follow (%d rows)", len(h.activities().items))
	}
	h.key("]")
	a := h.activities()
	if !a.paged() || len(a.items) < 3 {
		t.Fatalf("the older page: paged %v, %d rows", a.paged(), len(a.items))
	}
	return a
}

// pendingInAllView shows the All view filtered to pending activities.
func pendingInAllView(t *testing.T, h *harness) *Activities {
	t.Helper()
	h.key("v")
	h.send(filterPickedMsg{kind: "status", values: []string{api.StatusConsensusNeeded}})
	a := h.activities()
	if !a.all || len(a.items) < 3 {
		t.Fatalf("the All view filtered to pending: all %v, %d rows", a.all, len(a.items))
	}
	return a
}

// bobsActivity is an activity of bob's listed at or after row from.
func bobsActivity(t *testing.T, a *Activities, from int) api.Activity {
	t.Helper()
	for i := from; i < len(a.items); i++ {
		if it := a.items[i]; len(it.Votes) > 0 && it.Votes[0].User.UserName == "bob" {
			return it
		}
	}
	t.Fatalf("no activity of bob's from row %d", from)
	return api.Activity{}
}

// settleElsewhere has carol approve act from the CLI: with bob's request, the
// root quorum, so it completes.
func settleElsewhere(t *testing.T, d *servertest.Demo, act api.Activity) {
	t.Helper()
	done, err := d.Client("carol").ApproveActivity(context.Background(), act.Fingerprint)
	if err != nil || done.Status != api.StatusCompleted {
		t.Fatalf("carol's approval: %v, %+v", err, done)
	}
}

// backlog has bob and carol, in turn, submit n distinct contract
// interfaces, each waiting for the root quorum.
func backlog(t *testing.T, d *servertest.Demo, n int) {
	t.Helper()
	members := []string{"bob", "carol"}
	for i := range n {
		act, err := d.Client(members[i%2]).CreateSmartContractInterface(context.Background(), api.CreateSmartContractInterfaceParams{
			SmartContractAddress: "0xabc", SmartContractInterface: "[]", Type: api.SmartContractInterfaceEthereum, Label: fmt.Sprintf("backlog %d", i)})
		if err != nil || act.Status != api.StatusConsensusNeeded {
			t.Fatalf("interface %d: %v %+v", i, err, act)
		}
	}
}
