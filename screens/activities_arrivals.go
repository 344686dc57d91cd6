package screens

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
)

// Arrivals are told from the first page of Pending, the only list whose
// refreshes see what is new. While the member reads anything else (the All
// view, an older page), that page is read in the background at each
// auto-refresh tick, and what arrived waiting for their vote is told as the
// first page would tell it; the rows, the cursor and the page stay as they are.

// pendingTopPolledMsg is the first page of Pending, read in the background.
type pendingTopPolledMsg struct {
	gen   int
	items []api.Activity
	err   error
}

// arrivalWatch is what the arrival notices remember across views and pages.
type arrivalWatch struct {
	// top is the first page of Pending as last read, by its own load or by
	// a poll; known: it was read once (the first read has nothing to
	// compare with).
	top   []api.Activity
	known bool
	// gen numbers the reads of top: a poll answered after a newer read
	// would compare the past with the present.
	gen     int
	polling bool
}

// onFirstPending reports whether the list shown is the first page of Pending,
// whose own refreshes tell arrivals.
func (a *Activities) onFirstPending() bool { return !a.all && !a.paged() }

// tookFirstPending records a load of the first page of Pending: polls compare
// with it, and any in flight is older. So an arrival is told once: by the
// page's refresh or by a poll, whose baseline holds what the page showed
// (the first load after a return to the page is not compared).
func (a *Activities) tookFirstPending(items []api.Activity) {
	a.arrivals.top, a.arrivals.known = items, true
	a.arrivals.gen++
	a.arrivals.polling = false
}

// pollPendingTop reads the first page of Pending when the member is
// elsewhere, with auto-refresh on; nil when its own refreshes tell, when a
// poll or a vote is in flight, or when the console cannot vote (read-only: nothing
// waits for it, as the first page says).
func (a *Activities) pollPendingTop() tea.Cmd {
	if !a.auto() || a.c.ReadOnly() || a.onFirstPending() || a.arrivals.polling || a.voting != "" {
		return nil
	}
	a.arrivals.gen++
	a.arrivals.polling = true
	gen, client, c := a.arrivals.gen, a.c.Reader, a.c
	opts := api.ListActivitiesOptions{Limit: pageSize, Statuses: []string{api.StatusConsensusNeeded}}
	return func() tea.Msg {
		ctx, cancel := c.ctx()
		defer cancel()
		items, err := client.ListActivities(ctx, opts)
		return pendingTopPolledMsg{gen: gen, items: items, err: err}
	}
}

// dropPendingTopPoll forgets a poll in flight when the member votes: read
// before the vote and answered after it, it would ring for an activity the
// member has just voted on. Polls pause while the vote is out, as the first
// page's loads do.
func (a *Activities) dropPendingTopPoll() {
	a.arrivals.gen++
	a.arrivals.polling = false
}

// polledPendingTop tells the arrivals a poll found waiting for the member's
// vote. A failed poll says nothing: the list shown has its own refresh, which
// says when the service fails. Back on the first page, its loads tell.
func (a *Activities) polledPendingTop(msg pendingTopPolledMsg) tea.Cmd {
	if msg.gen != a.arrivals.gen {
		return nil
	}
	a.arrivals.polling = false
	if msg.err != nil || a.onFirstPending() {
		return nil
	}
	prev, known := a.arrivals.top, a.arrivals.known
	a.arrivals.top, a.arrivals.known = msg.items, true
	if !known {
		return nil
	}
	var yours []api.Activity
	for _, it := range arrivalsIn(prev, msg.items) {
		if a.waitsForYou(&it) {
			yours = append(yours, it)
		}
	}
	return a.announceArrivals(yours)
}

// arrivalsIn are the activities of next, a later read of the first page of
// Pending than prev, that arrived since: not in prev, and not older than
// everything in it. With more pending than a page, one that settled lets the
// newest of the next page in; it did not arrive (telling it would ring for a
// vote nobody asked for now).
func arrivalsIn(prev, next []api.Activity) []api.Activity {
	inPrev := make(map[string]bool, len(prev))
	var oldest time.Time
	for _, it := range prev {
		inPrev[it.ID] = true
		if t := it.CreatedAt.Time(); oldest.IsZero() || t.Before(oldest) {
			oldest = t
		}
	}
	var out []api.Activity
	for _, it := range next {
		if !inPrev[it.ID] && !it.CreatedAt.Time().Before(oldest) {
			out = append(out, it)
		}
	}
	return out
}
