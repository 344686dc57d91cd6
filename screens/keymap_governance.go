package screens

import "charm.land/bubbles/v2/key"

// organizationSetKeys are the Organization screen's governance keys.
type organizationSetKeys struct {
	Set key.Binding
}

func newOrganizationSetKeys() organizationSetKeys {
	return organizationSetKeys{Set: key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "set feature"))}
}

// governanceActions are the Organization screen's rebindable governance keys.
func (o *Organization) governanceActions() []KeyAction {
	return []KeyAction{{"set_feature", &o.gkeys.Set, 0}}
}

// usersKeys are the Users screen's keys; ↑/↓ move between a user's API keys in
// the open detail.
type usersKeys struct {
	Refresh, AutoRefresh, Up, Down, Mark, KeyInfo, Delete key.Binding
}

func newUsersKeys() usersKeys {
	return usersKeys{
		Refresh: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "refresh")),
		// The open user's poll of its pending deletions, with Activities'.
		AutoRefresh: key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "pause/resume auto-refresh")),
		Up:          key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "previous key")),
		Down:        key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "next key")),
		Mark:        key.NewBinding(key.WithKeys("space"), key.WithHelp("space", "mark key")),
		KeyInfo:     key.NewBinding(key.WithKeys("i"), key.WithHelp("i", "get_api_key")),
		Delete:      key.NewBinding(key.WithKeys("d"), key.WithHelp("d", "delete keys")),
	}
}

// KeyActions of the Users screen.
func (u *Users) KeyActions() []KeyAction {
	k, l := &u.keys, &u.list.Keys
	return scoped("users", []KeyAction{
		{"open", &l.Open, 0}, {"back", &l.Back, 0}, {"sort", &l.Sort, 0}, {"reverse_sort", &l.ReverseSort, 0},
		{"refresh", &k.Refresh, 1}, {"auto_refresh", &k.AutoRefresh, 1}, {"next_key", &k.Down, 1}, {"prev_key", &k.Up, 1},
		{"mark_key", &k.Mark, 1}, {"key_info", &k.KeyInfo, 1}, {"delete_keys", &k.Delete, 1},
	})
}

// Commands of the Users screen, for the palette.
func (u *Users) Commands() []Command {
	u.syncKeys()
	k, l := u.keys, u.list.Keys
	return []Command{
		keyCommand("refresh users", k.Refresh, ""),
		keyCommand("open user", l.Open, "nothing selected, or a user is open"),
		keyCommand("mark API key", k.Mark, "open a user with API keys first"),
		keyCommand("get_api_key of the key under the cursor", k.KeyInfo, "open a user with API keys first"),
		keyCommand("delete marked API keys", k.Delete, "open a user with API keys first (read-only consoles cannot delete)"),
	}
}

// mfaKeys are the MFA policies screen's keys.
type mfaKeys struct {
	Refresh, User, NextUser, Create key.Binding
	// Status opens the MFA status in full, scrollable: under the list it is
	// cut to what the window leaves.
	Status key.Binding
	// In the open MFA status, Up and Down choose a pending activity and
	// OpenActivity opens it in Activities.
	Up, Down, OpenActivity key.Binding
}

func newMfaKeys() mfaKeys {
	return mfaKeys{
		Refresh:      key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "refresh")),
		User:         key.NewBinding(key.WithKeys("u"), key.WithHelp("u", "pick user")),
		NextUser:     key.NewBinding(key.WithKeys("U"), key.WithHelp("U", "next user")),
		Create:       key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "new policy")),
		Status:       key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "MFA status (scroll)")),
		Up:           key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "previous activity")),
		Down:         key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "next activity")),
		OpenActivity: newOpenActivityKey(),
	}
}

// KeyActions of the MFA policies screen.
func (m *MfaPolicies) KeyActions() []KeyAction {
	k, l := &m.keys, &m.list.Keys
	return scoped("mfa", []KeyAction{
		{"open", &l.Open, 0}, {"back", &l.Back, 0}, {"sort", &l.Sort, 0}, {"reverse_sort", &l.ReverseSort, 0},
		{"refresh", &k.Refresh, 1}, {"pick_user", &k.User, 1}, {"next_user", &k.NextUser, 1}, {"create", &k.Create, 1}, {"status", &k.Status, 1},
		{"open_activity", &k.OpenActivity, 1},
	})
}

// Commands of the MFA policies screen, for the palette.
func (m *MfaPolicies) Commands() []Command {
	m.syncKeys()
	k := m.keys
	return []Command{
		keyCommand("refresh MFA policies", k.Refresh, ""),
		keyCommand("MFA policies of a user picked by name", k.User, m.whyNoUserSwitch()),
		keyCommand("MFA policies of the next user", k.NextUser, m.whyNoUserSwitch()),
		keyCommand("new MFA policy", k.Create, m.whyNoCreate()),
		keyCommand("MFA status for pending activities, scrollable", k.Status, "close the policy first"),
		keyCommand("open the chosen pending activity in Activities", k.OpenActivity, m.whyNoStatusActivity()),
	}
}
