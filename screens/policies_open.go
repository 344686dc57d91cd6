package screens

import (
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
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
	ds := p.decided(pol.PolicyID)
	if len(ds) == 0 {
		return nil, false // nothing to choose: ↑/↓ scroll
	}
	i := p.decidedIndex(ds)
	switch {
	case i < 0 && (key.Matches(k, p.keys.Up) || key.Matches(k, p.keys.Down)):
		i = 0 // the choice is gone: choose again from the top
	case key.Matches(k, p.keys.Up):
		i = max(i-1, 0)
	case key.Matches(k, p.keys.Down):
		i = min(i+1, len(ds)-1)
	default:
		return nil, false
	}
	p.decidedID = ds[i].act.ID
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
	i := p.decidedIndex(ds)
	if i < 0 {
		return ui.Toast("the activity chosen ("+ui.Clean(api.SanitizeID(p.decidedID))+") is no longer among those this policy decided; choose one with "+
			p.keys.Up.Help().Key+"/"+p.keys.Down.Help().Key, true)
	}
	act := ds[i].act
	return msgCmd(ShowActivityMsg{ID: act.ID, Activity: &act})
}

// decidedIndex is the index in ds of the chosen activity, -1 when it is no
// longer there. Before any choice the first is chosen.
func (p *Policies) decidedIndex(ds []recentActivity) int {
	if p.decidedID == "" && len(ds) > 0 {
		p.decidedID = ds[0].act.ID
	}
	return slices.IndexFunc(ds, func(ra recentActivity) bool { return ra.act.ID == p.decidedID })
}

// hasDecided reports whether the open policy decided a recent activity.
func (p *Policies) hasDecided() bool {
	pol := p.selectedPolicy()
	return pol != nil && len(p.decided(pol.PolicyID)) > 0
}
