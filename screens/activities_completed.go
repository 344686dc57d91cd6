package screens

import (
	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
	"github.com/vigil-console/vigil/ui"
)

// An activity that completes may change what the organization's load holds
// (policies, members, quorum…): what the vote dialog predicts from and what
// the other screens show. The screen tells it from the copies it is handed
// (copiesIn: a list of any view and page, an open detail's record, the vote
// dialog's re-read, a vote's reply, a settled record), not from one view's
// comparison of two lists: a copy that arrives COMPLETED of an activity an
// earlier copy showed waiting makes the console reload the organization
// (orgChangedMsg), whichever view or page showed either copy. What no copy
// shows (a completion on a page not shown) the root's org watch covers for
// the newest activities (org_watch.go), and the vote dialog's read of the
// organization when it opens for the others (askVote). A refresh that no
// longer lists an activity held as waiting (a status filter leaves
// COMPLETED out, newer ones pushed it off the page) fetches its record
// (fetchDropped), so that some copy shows how it ended.

// waitingSeen are the activities seen not yet settled whose completion may
// change the organization's records (not policy.ChangesNoRecords), and those
// whose completion was told, each with the number of the copy that showed it
// last. A told one stays told: a copy read before it completed (a list
// answered late) must not make the next copy tell it again.
type waitingSeen struct {
	seen  map[string]waitingEntry
	count int
}

// waitingEntry is what the copies of one activity showed.
type waitingEntry struct {
	last int  // the number of the copy that showed it last
	told bool // a copy showed it COMPLETED after one showed it waiting
}

// waitingKnown bounds waitingSeen: past it, the half seen longest ago is
// forgotten (a console that pages through thousands of pending activities
// keeps the newest).
const waitingKnown = 4096

// completedIn notes copies and reports whether one of them completed an
// activity an earlier copy showed waiting, of a type that may change the
// organization's records.
func (w *waitingSeen) completedIn(copies []*api.Activity) bool {
	completed := false
	for _, act := range copies {
		if policy.ChangesNoRecords(act.Type) {
			continue
		}
		w.count++
		was, known := w.seen[act.ID]
		switch {
		case known && was.told:
			w.seen[act.ID] = waitingEntry{last: w.count, told: true}
		case act.Status == api.StatusCompleted:
			if known {
				completed = true
				w.seen[act.ID] = waitingEntry{last: w.count, told: true}
			}
		case api.IsTerminal(act.Status):
			delete(w.seen, act.ID)
		default:
			if w.seen == nil {
				w.seen = map[string]waitingEntry{}
			}
			w.seen[act.ID] = waitingEntry{last: w.count}
		}
	}
	w.forgetOldest()
	return completed
}

// forgetOldest forgets, while more than waitingKnown are remembered, the
// half seen longest ago.
func (w *waitingSeen) forgetOldest() {
	if len(w.seen) <= waitingKnown {
		return
	}
	oldest, newest := w.count, 0
	for _, e := range w.seen {
		oldest, newest = min(oldest, e.last), max(newest, e.last)
	}
	cut := oldest + (newest-oldest)/2
	for id, e := range w.seen {
		if e.last <= cut {
			delete(w.seen, id)
		}
	}
}

// waiting reports whether activity id was shown waiting last, its
// completion not yet told.
func (w *waitingSeen) waiting(id string) bool {
	e, known := w.seen[id]
	return known && !e.told
}

// waitingRecordMsg brings the record of an activity held as waiting that a
// refresh no longer listed: a copy for completedIn, nothing for the list.
type waitingRecordMsg struct {
	activity *api.Activity
	err      error
}

// fetchDropped reads the record of each activity the list before a
// refresh held (prev) and the refresh (next) no longer does, while held as
// waiting. The Pending view reads them already (announce), to keep them
// listed with their final status; every other view drops them, and without
// this read a completion that leaves a filtered list would never be seen.
func (a *Activities) fetchDropped(prev, next []api.Activity) tea.Cmd {
	if a.watching() {
		return nil
	}
	listed := make(map[string]bool, len(next))
	for _, it := range next {
		listed[it.ID] = true
	}
	var cmds []tea.Cmd
	for _, it := range prev {
		if !listed[it.ID] && a.waiting.waiting(it.ID) {
			cmds = append(cmds, getActivity(a.c, it.ID, func(act *api.Activity, err error) tea.Msg {
				return waitingRecordMsg{activity: act, err: err}
			}))
		}
	}
	return tea.Batch(cmds...)
}

// droppedUnread logs a dropped activity's record that could not be read:
// its completion, if it completed, is left to the org watch and to the vote
// dialog's read of the organization.
func (a *Activities) droppedUnread(msg waitingRecordMsg) tea.Cmd {
	if msg.err == nil {
		return nil
	}
	log, text := a.c.Log, ui.Clean(msg.err.Error())
	return func() tea.Msg { log.Warn("reading an activity that left the list failed", "err", text); return nil }
}
