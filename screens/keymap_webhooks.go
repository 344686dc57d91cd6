package screens

import "charm.land/bubbles/v2/key"

// webhooksKeys are the Webhooks screen's own keys (the list's are ui.ListDetail's).
type webhooksKeys struct {
	Copy key.Binding
	// OpenActivity opens the open delivery's activity in Activities.
	OpenActivity key.Binding
}

func newWebhooksKeys() webhooksKeys {
	return webhooksKeys{Copy: key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "copy event id")), OpenActivity: newOpenActivityKey()}
}

// KeyActions of the Webhooks screen.
func (w *Webhooks) KeyActions() []KeyAction {
	l := &w.list.Keys
	return scoped("webhooks", []KeyAction{
		{"open", &l.Open, 0}, {"back", &l.Back, 0}, {"sort", &l.Sort, 0}, {"reverse_sort", &l.ReverseSort, 0},
		{"copy", &w.keys.Copy, 1}, {"open_activity", &w.keys.OpenActivity, 1},
	})
}
