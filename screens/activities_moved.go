package screens

import (
	"slices"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui"
)

// A refresh may take away the activity under the cursor or the one the vote
// dialog asks about where the list does not keep it (the All view with a
// filter: its status changed). a, x and enter must not then fall to another
// row unsaid, nor the dialog vote on what it no longer shows.

// voteDialogRecordMsg brings the record of the vote dialog's activity, read
// because a refresh of the list no longer held it.
type voteDialogRecordMsg struct {
	id       string
	sent     int // in the screen's sequence (copy_order.go)
	activity *api.Activity
	err      error
}

// underCursor is a copy of the row the keys act on, nil when an activity is
// open (its detail holds it) or no row is selected.
func (a *Activities) underCursor() *api.Activity {
	if a.detail != nil {
		return nil
	}
	sel := a.selected()
	if sel == nil {
		return nil
	}
	act := *sel
	return &act
}

// saidMoved tells that a refresh took away prev, the row under the cursor,
// and that the cursor is on its neighbour now: the next a, x or enter acts
// on that one.
func (a *Activities) saidMoved(prev *api.Activity, refreshed bool, moved ui.Moved) tea.Cmd {
	if prev == nil || !refreshed || moved == ui.Kept {
		return nil
	}
	list := "this page"
	if a.all {
		list = "the list (its filter no longer takes it)"
	}
	return ui.Toast("the activity under the cursor left "+list+" ("+intentWhat(a.c, prev)+"); "+cursorWent(moved), true)
}

// cursorWent says which row the cursor is on after its row was taken away:
// the one that followed it, or, when those went too (or are leaving the
// list themselves), the last one that stays.
func cursorWent(moved ui.Moved) string {
	switch moved {
	case ui.ToLast:
		return "no row that followed it stays on the list: the cursor moved to the last row that does"
	case ui.ToFirst:
		return "none of the rows around it is left: the cursor moved to the first row"
	case ui.ToNone:
		return "no row is left"
	}
	return "the cursor moved to the row that followed it"
}

// readAsked reads the vote dialog's activity again when the list just
// loaded neither holds nor keeps it: the dialog follows that record as it
// would the row's (it closes, nothing sent, if the activity settled).
func (a *Activities) readAsked() tea.Cmd {
	o := a.asking
	if o == nil || o.dialog.gone {
		return nil
	}
	id := o.vote.id
	if slices.ContainsFunc(a.items, func(it api.Activity) bool { return it.ID == id }) {
		return nil
	}
	if a.detail != nil && a.detail.activity.ID == id {
		return nil // the open detail reads it, and the dialog follows the detail
	}
	sent := a.gens.next()
	return getActivity(a.c, id, func(act *api.Activity, err error) tea.Msg {
		return voteDialogRecordMsg{id: id, sent: sent, activity: act, err: err}
	})
}

// followAskedRecord puts the record readAsked read through the dialog's
// follow path. Unreadable, the dialog closes: what it says may no longer
// hold, and the list no longer shows the activity.
func (a *Activities) followAskedRecord(msg voteDialogRecordMsg) tea.Cmd {
	o := a.asking
	if o == nil || o.dialog.gone || o.vote.id != msg.id {
		return nil
	}
	if msg.err != nil || msg.activity == nil {
		why := "it left the list and its record could not be read"
		if msg.err != nil {
			why += " (" + errorText(msg.err) + ")"
		}
		return a.withdrawVote(withdrawnText(o.vote, why+"; press r, then vote again if it still waits"))
	}
	return a.followVoteCopy(msg.activity, copyOrder{msg.sent, a.gens.next()}, false)
}

// closeDetail goes back from the open activity to the list. While it was
// open, a refresh may have taken away the row under the cursor and moved
// the cursor unsaid (a, x and enter acted on the open activity then):
// back on the list they act on the cursor's row, another one than the
// member left it on, so that is said.
func (a *Activities) closeDetail() tea.Cmd {
	open, was := a.detail.activity, a.detail.cursorRow
	a.detail = nil
	a.list.Close()
	if sel := a.selected(); was == nil || sel == nil || sel.ID == was.ID {
		return nil
	}
	list := "this page"
	if a.all {
		list = "the list (its filter no longer takes it)"
	}
	what := "the activity you had open left " + list + " while you read it (" + intentWhat(a.c, &open) + ")"
	if was.ID != open.ID {
		what = "the activity under the cursor left " + list + " while another was open (" + intentWhat(a.c, was) + ")"
	}
	return ui.Toast(what+"; the cursor is on another row now: the next a, x or enter acts on that one", true)
}
