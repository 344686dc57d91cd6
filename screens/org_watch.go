package screens

import (
	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
)

// The Activities screen tells the activities it saw waiting that complete
// (activities_completed.go). One proposed and completed between two
// refreshes (a policy two members settle on the CLI) is never seen waiting,
// and the policies, users and quorum the vote dialog predicts from would
// stay as they were. So at each
// refresh the root also looks at the newest few activities of any status
// (one small query, whatever the organization holds) and reloads the
// organization when one completed since the last look whose type may change
// what the load holds (policy.ChangesNoRecords names those that cannot: a
// read-only session, an invitation). A reload reads every user, which at a
// large organization is megabytes for each open console.

// watchLimit is how many of the newest activities each look reads.
const watchLimit = 5

// orgWatch is what the looks saw: each activity's status by id, with the
// number of the last look that showed it (nil: no look answered yet;
// bounded by watchKnown), and whether a look is in flight. Kept over
// several looks, not the last one only: a page the client halves and
// doubles again (api's reply bound) brings back activities the look before
// did not show, which are not new.
type orgWatch struct {
	seen     map[string]watchSeen
	looks    int
	inFlight bool
}

// watchSeen is an activity's status at the last look that showed it.
type watchSeen struct {
	status string
	look   int
}

// watchKnown bounds orgWatch.seen: past it, the activities the oldest
// looks showed are forgotten first (those of a halved page's full one
// stay, as every other look shows them again).
const watchKnown = 256

// orgWatchedMsg brings a look's newest activities.
type orgWatchedMsg struct {
	items []api.Activity
	err   error
}

// watchOrg starts a look unless one is in flight.
func (r *Root) watchOrg() tea.Cmd {
	if r.orgWatch.inFlight || r.common.Reader == nil {
		return nil
	}
	r.orgWatch.inFlight = true
	c, reader := r.common, r.common.Reader
	return func() tea.Msg {
		ctx, cancel := c.ctx()
		defer cancel()
		items, err := reader.ListActivities(ctx, api.ListActivitiesOptions{Limit: watchLimit})
		return orgWatchedMsg{items: items, err: err}
	}
}

// orgWatched compares a look with the earlier ones: an activity completed
// since (seen before with another status, or new and already completed)
// whose type may change the organization's records (completedChange),
// or none of the activities seen before left on the page (more arrived
// than a look reads), reloads the organization. The first look cannot tell
// what completed between the organization's load at start and itself, so
// a completed activity in it reloads the organization once (not the
// screens: they load at start anyway). A failed look changes nothing (the
// list's refresh says the service is not answering).
func (r *Root) orgWatched(msg orgWatchedMsg) tea.Cmd {
	r.orgWatch.inFlight = false
	if msg.err != nil {
		return nil
	}
	w := &r.orgWatch
	w.looks++
	if w.seen == nil {
		w.seen = make(map[string]watchSeen, len(msg.items))
		completed := false
		for _, it := range msg.items {
			w.seen[it.ID] = watchSeen{it.Status, w.looks}
			completed = completed || completedChange(it)
		}
		if completed {
			return msgCmd(reloadOrgMsg{})
		}
		return nil
	}
	var completed []string
	overlap, hadSeen := false, len(w.seen) > 0
	for _, it := range msg.items {
		was, seen := w.seen[it.ID]
		overlap = overlap || seen
		if completedChange(it) && was.status != api.StatusCompleted {
			completed = append(completed, it.ID)
		}
		w.seen[it.ID] = watchSeen{it.Status, w.looks}
	}
	w.forgetOldest()
	if hadSeen && !overlap {
		// More arrived than a look reads: what completed among them is
		// not known, so the change names none.
		completed = nil
	}
	if len(completed) > 0 || hadSeen && !overlap {
		return msgCmd(orgChangedMsg{completed: completed, seen: r.orgLoads.started})
	}
	return nil
}

// completedChange reports whether act completed and its type may have
// changed what the organization's load holds.
func completedChange(act api.Activity) bool {
	return act.Status == api.StatusCompleted && !policy.ChangesNoRecords(act.Type)
}

// forgetOldest forgets, while more than watchKnown are remembered, the
// activities the oldest look showed last.
func (w *orgWatch) forgetOldest() {
	for len(w.seen) > watchKnown {
		oldest := w.looks
		for _, s := range w.seen {
			oldest = min(oldest, s.look)
		}
		for id, s := range w.seen {
			if s.look == oldest {
				delete(w.seen, id)
			}
		}
	}
}
