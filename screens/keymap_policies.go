package screens

import "charm.land/bubbles/v2/key"

// policiesKeys are the Policies screen's keys (in their own file so that
// screens added in parallel do not edit the same lines of keymap.go).
// Create is enabled only with a submitter; pressed in read-only mode it says
// why. Simulate works in the editor (where letters are typed, hence ctrl).
type policiesKeys struct {
	Create, Evaluations, Refresh, CopyID, Simulate, Up, Down key.Binding
	// OpenActivity opens an open evaluation's activity, or one a policy
	// decided, in Activities.
	OpenActivity key.Binding
}

func newPoliciesKeys() policiesKeys {
	return policiesKeys{
		Create:       key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "new policy")),
		Evaluations:  key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "policies/evaluations")),
		Refresh:      key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "refresh")),
		CopyID:       key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "copy id")),
		Simulate:     key.NewBinding(key.WithKeys("ctrl+r"), key.WithHelp("ctrl+r", "simulate")),
		Up:           key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:         key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		OpenActivity: newOpenActivityKey(),
	}
}

// KeyActions of the Policies screen.
func (p *Policies) KeyActions() []KeyAction {
	k := &p.keys
	l := &p.list.Keys
	return scoped("policies", []KeyAction{
		{"open", &l.Open, 0}, {"back", &l.Back, 0}, {"sort", &l.Sort, 0}, {"reverse_sort", &l.ReverseSort, 0},
		{"create", &k.Create, 1}, {"simulate", &k.Simulate, 1}, {"copy_id", &k.CopyID, 1},
		{"evaluations", &k.Evaluations, 2}, {"refresh", &k.Refresh, 2}, {"open_activity", &k.OpenActivity, 2},
	})
}
