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

// orgWatch is what the last look saw: each activity's status by id (nil:
// no look answered yet), and whether a look is in flight.
type orgWatch struct {
	seen     map[string]string
	inFlight bool
}

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

// orgWatched compares a look with the last one: an activity completed
// since (new, or seen before with another status), or none of the last
// look's left on the page (more arrived than a look reads), reloads the
// organization. The first look only sets what the next compares with: the
// organization was loaded at start. A failed look changes nothing (the
// list's refresh says the service is not answering).
func (r *Root) orgWatched(msg orgWatchedMsg) tea.Cmd {
	r.orgWatch.inFlight = false
	if msg.err != nil {
		return nil
	}
	prev := r.orgWatch.seen
	r.orgWatch.seen = make(map[string]string, len(msg.items))
	for _, it := range msg.items {
		r.orgWatch.seen[it.ID] = it.Status
	}
	if prev == nil {
		return nil
	}
	changed, overlap := false, false
	for _, it := range msg.items {
		was, seen := prev[it.ID]
		overlap = overlap || seen
		if it.Status == api.StatusCompleted && was != api.StatusCompleted {
			changed = true
		}
	}
	if changed || len(prev) > 0 && !overlap {
		return msgCmd(orgChangedMsg{})
	}
	return nil
}
