package screens

import (
	"charm.land/bubbles/v2/key"
)

// activitiesKeys are the Activities screen's keys. Approve and Reject are enabled
// or disabled for the selected activity before every render, so help shows them
// struck through when they would do nothing.
type activitiesKeys struct {
	Open, Approve, Reject, Refresh, AutoRefresh, Mode key.Binding
	Status, Type, NextPage, PrevPage, CopyID, CopyFP  key.Binding
	Up, Down, Filter                                  key.Binding
}

func newActivitiesKeys() activitiesKeys {
	return activitiesKeys{
		Open:        key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open")),
		Approve:     key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "approve")),
		Reject:      key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "reject")),
		Refresh:     key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "refresh")),
		AutoRefresh: key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "pause/resume auto-refresh")),
		Mode:        key.NewBinding(key.WithKeys("v"), key.WithHelp("v", "pending/all")),
		Status:      key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "status filter")),
		Type:        key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "type filter")),
		NextPage:    key.NewBinding(key.WithKeys("]"), key.WithHelp("]", "older page")),
		PrevPage:    key.NewBinding(key.WithKeys("["), key.WithHelp("[", "newer page")),
		CopyID:      key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "copy id")),
		CopyFP:      key.NewBinding(key.WithKeys("Y"), key.WithHelp("Y", "copy fingerprint")),
		Up:          key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:        key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		Filter:      key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter")),
	}
}
