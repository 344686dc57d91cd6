package screens

import (
	"cmp"
	"slices"
	"time"

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
	// forgot: waiting ones were forgotten (forgetOldest), created from
	// forgotFrom to forgotTo (the service's times): a completed copy of an
	// activity not known, created in that span, may be one of them.
	forgot               bool
	forgotFrom, forgotTo time.Time
}

// waitingEntry is what the copies of one activity showed.
type waitingEntry struct {
	last    int       // the number of the copy that showed it last
	told    bool      // a copy showed it COMPLETED after one showed it waiting
	created time.Time // its creation time, as the copies said
}

// waitingKnown bounds waitingSeen: past it, half are forgotten, those told
// first (forgetting one costs at most a reload more), then the waiting ones
// seen longest ago (a console that pages through thousands of pending
// activities keeps the newest).
const waitingKnown = 4096

// completedIn notes copies and returns the activities one of them showed
// completed that an earlier copy showed waiting, of a type that may change
// the organization's records. A completed one not known but created in the
// span of the waiting ones forgotten counts as one: its completion may
// change what the vote dialog predicts from, and a reload too many costs
// less than a change missed.
func (w *waitingSeen) completedIn(copies []*api.Activity) []string {
	var completed []string
	for _, act := range copies {
		if policy.ChangesNoRecords(act.Type) {
			continue
		}
		w.count++
		was, known := w.seen[act.ID]
		created := act.CreatedAt.Time()
		switch {
		case known && was.told:
			w.seen[act.ID] = waitingEntry{last: w.count, told: true, created: was.created}
		case act.Status == api.StatusCompleted:
			if known || w.mayBeForgotten(created) {
				completed = append(completed, act.ID)
				w.note(act.ID, waitingEntry{last: w.count, told: true, created: created})
			}
		case api.IsTerminal(act.Status):
			delete(w.seen, act.ID)
		default:
			w.note(act.ID, waitingEntry{last: w.count, created: created})
		}
	}
	w.forgetOldest()
	return completed
}

// note records what a copy of activity id showed.
func (w *waitingSeen) note(id string, e waitingEntry) {
	if w.seen == nil {
		w.seen = map[string]waitingEntry{}
	}
	w.seen[id] = e
}

// mayBeForgotten reports whether an activity created then may be a waiting
// one forgotten.
func (w *waitingSeen) mayBeForgotten(created time.Time) bool {
	return w.forgot && !created.Before(w.forgotFrom) && !created.After(w.forgotTo)
}

// forgetOldest forgets, while more than waitingKnown are remembered, half of
// them: the told ones first, then the waiting ones seen longest ago, whose
// creation times it keeps the span of (mayBeForgotten).
func (w *waitingSeen) forgetOldest() {
	if len(w.seen) <= waitingKnown {
		return
	}
	ids := make([]string, 0, len(w.seen))
	for id := range w.seen {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, func(x, y string) int {
		a, b := w.seen[x], w.seen[y]
		if a.told != b.told {
			if a.told {
				return -1
			}
			return 1
		}
		return cmp.Compare(a.last, b.last)
	})
	for _, id := range ids[:len(ids)-waitingKnown/2] {
		if e := w.seen[id]; !e.told {
			w.forgetWaiting(e.created)
		}
		delete(w.seen, id)
	}
}

// forgetWaiting widens the span of the waiting ones forgotten to one
// created then.
func (w *waitingSeen) forgetWaiting(created time.Time) {
	if !w.forgot {
		w.forgot, w.forgotFrom, w.forgotTo = true, created, created
		return
	}
	if created.Before(w.forgotFrom) {
		w.forgotFrom = created
	}
	if created.After(w.forgotTo) {
		w.forgotTo = created
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
