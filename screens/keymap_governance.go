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
