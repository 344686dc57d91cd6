package screens

import (
	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
)

// The pending list tells the activities that complete while it watches
// them. One proposed and completed between two refreshes (a policy two
// members settle on the CLI) is never on it, and the policies, users and
// quorum the vote dialog predicts from would stay as they were. So at each
// refresh the root also looks at the newest few activities of any status
// (one small query, whatever the organization holds) and reloads the
// organization when one completed since the last look.

// watchLimit is how many of the newest activities each look reads.
const watchLimit = 5

// orgWatch is what the looks saw: each activity's status by id, over the
// last looks (nil: no look answered yet; bounded by watchKnown), and
// whether a look is in flight. Kept over several looks, not the last one
// only: a page the client halves and doubles again (api's reply bound)
// brings back activities the look before did not show, which are not new.
type orgWatch struct {
	seen     map[string]string
	inFlight bool
}

// watchKnown bounds orgWatch.seen: past it, only the last look is kept.
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
// since (seen before with another status, or new and already completed),
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
	prev := r.orgWatch.seen
	if prev == nil {
		r.orgWatch.seen = make(map[string]string, len(msg.items))
		completed := false
		for _, it := range msg.items {
			r.orgWatch.seen[it.ID] = it.Status
			completed = completed || it.Status == api.StatusCompleted
		}
		if completed {
			return msgCmd(reloadOrgMsg{})
		}
		return nil
	}
	changed, overlap, hadSeen := false, false, len(prev) > 0
	for _, it := range msg.items {
		was, seen := prev[it.ID]
		overlap = overlap || seen
		if it.Status == api.StatusCompleted && was != api.StatusCompleted {
			changed = true
		}
	}
	if len(prev)+len(msg.items) > watchKnown {
		prev = make(map[string]string, len(msg.items))
		r.orgWatch.seen = prev
	}
	for _, it := range msg.items {
		prev[it.ID] = it.Status
	}
	if changed || hadSeen && !overlap {
		return msgCmd(orgChangedMsg{})
	}
	return nil
}
