package screens

import (
	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
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
// organization when it opens for the others (askVote).

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
