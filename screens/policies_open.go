package screens

import (
	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
)

// openKey handles the keys that lead from an open evaluation, or from a
// policy's "Recent activities it decided", to the activity itself: A (or
// enter) opens it in Activities, where it can be read and voted on; in a policy's detail ↑/↓
// choose among the activities it decided. handled is false for other keys.
func (p *Policies) openKey(k tea.KeyPressMsg) (cmd tea.Cmd, handled bool) {
	if !p.list.IsOpen() {
		return nil, false
	}
	if cmd := p.openGone(); cmd != nil && (pressed(k, p.keys.OpenActivity) || pressed(k, p.list.Keys.Open)) {
		return cmd, true
	}
	if opensActivity(k, p.keys.OpenActivity, p.list.Keys.Open) {
		return p.openActivity(), true
	}
	pol := p.selectedPolicy()
	if pol == nil {
		return nil, false
	}
	ds := p.decided(pol.PolicyID)
	if len(ds) == 0 || !p.choice.move(k, p.keys.Up, p.keys.Down, activityIDs(decidedActivities(ds))) {
		return nil, false // nothing to choose: ↑/↓ scroll
	}
	p.renderDetail()
	p.list.Pane.ShowLine(p.choice.line)
	return nil, true
}

// openActivity shows the open evaluation's activity, or the one under the
// cursor among those the open policy decided, in Activities.
func (p *Policies) openActivity() tea.Cmd {
	if ra := p.selectedRecent(); ra != nil {
		return showInActivities(ra.act)
	}
	pol := p.selectedPolicy()
	if pol == nil {
		return nil
	}
	return p.choice.open(decidedActivities(p.decided(pol.PolicyID)), "no recent activity decided by this policy to open", p.keys.Up, p.keys.Down)
}

// decidedActivities are the activities of ds, in order.
func decidedActivities(ds []recentActivity) []api.Activity {
	acts := make([]api.Activity, len(ds))
	for i, ra := range ds {
		acts[i] = ra.act
	}
	return acts
}

// hasDecided reports whether the open policy decided a recent activity.
func (p *Policies) hasDecided() bool {
	pol := p.selectedPolicy()
	return pol != nil && len(p.decided(pol.PolicyID)) > 0
}
