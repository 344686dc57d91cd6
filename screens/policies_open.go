package screens

import (
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/ui"
)

// openKey handles the keys that lead from an open evaluation, or from a
// policy's "Recent activities it decided", to the activity itself: A (or
// enter) opens it in Activities, where it can be read and voted on; in a policy's detail ↑/↓
// choose among the activities it decided. handled is false for other keys.
func (p *Policies) openKey(k tea.KeyPressMsg) (cmd tea.Cmd, handled bool) {
	if !p.list.IsOpen() {
		return nil, false
	}
	// The open key (enter) goes one step further in a detail that leads to
	// an activity, as it would from the list.
	if key.Matches(k, p.keys.OpenActivity) || p.keys.OpenActivity.Enabled() && slices.Contains(p.list.Keys.Open.Keys(), k.String()) {
		return p.openActivity(), true
	}
	pol := p.selectedPolicy()
	if pol == nil {
		return nil, false
	}
	n := len(p.decided(pol.PolicyID))
	if n == 0 {
		return nil, false // nothing to choose: ↑/↓ scroll
	}
	switch {
	case key.Matches(k, p.keys.Up):
		p.decidedCursor = max(min(p.decidedCursor, n-1)-1, 0)
	case key.Matches(k, p.keys.Down):
		p.decidedCursor = min(p.decidedCursor+1, n-1)
	default:
		return nil, false
	}
	p.renderDetail()
	p.list.Pane.ShowLine(p.decidedLine)
	return nil, true
}

// openActivity shows the open evaluation's activity, or the one under the
// cursor among those the open policy decided, in Activities.
func (p *Policies) openActivity() tea.Cmd {
	if ra := p.selectedRecent(); ra != nil {
		act := ra.act
		return msgCmd(ShowActivityMsg{ID: act.ID, Activity: &act})
	}
	pol := p.selectedPolicy()
	if pol == nil {
		return nil
	}
	ds := p.decided(pol.PolicyID)
	if len(ds) == 0 {
		return ui.Toast("no recent activity decided by this policy to open", true)
	}
	act := ds[min(p.decidedCursor, len(ds)-1)].act
	return msgCmd(ShowActivityMsg{ID: act.ID, Activity: &act})
}

// hasDecided reports whether the open policy decided a recent activity.
func (p *Policies) hasDecided() bool {
	pol := p.selectedPolicy()
	return pol != nil && len(p.decided(pol.PolicyID)) > 0
}
