package screens

import (
	"sort"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
)

// mfaUserPickedMsg is the user chosen in the MFA policies screen's picker
// (u): only that user's policies are loaded, not one user per step.
type mfaUserPickedMsg struct{ userID string }

// openUserPicker opens the fuzzy picker over the organization's users, by
// name with the id, so that any user of thousands is a few letters away.
func (m *MfaPolicies) openUserPicker() tea.Cmd {
	ids := m.usersByName()
	labels, tails := userLabels(m.c, ids)
	p := newPickerDialog("mfa-user", "MFA policies of", ids, labels, nil, func(v []string) tea.Msg {
		return mfaUserPickedMsg{userID: v[0]}
	})
	p.keepTails(tails)
	p.pickOne()
	return m.askDialog(p)
}

// usersByName are the organization's user ids ordered by name, then id.
func (m *MfaPolicies) usersByName() []string {
	names := m.c.Org.UserNames
	ids := make([]string, 0, len(names))
	for id := range names {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool {
		a, b := names[ids[i]], names[ids[j]]
		return a < b || (a == b && ids[i] < ids[j])
	})
	return ids
}

// userLabels name the users ids in a picker or a form's choices as
// api.NameWithID does, the name quoted when it could pass for another user
// with an id; tails are the " (id)" ends, kept whole when a row is cut so
// that a long name cannot push its own id out of sight.
func userLabels(c *Common, ids []string) (labels, tails []string) {
	labels, tails = make([]string, len(ids)), make([]string, len(ids))
	for i, id := range ids {
		labels[i] = api.NameWithID(c.Org.UserNames[id], id)
		tails[i] = " (" + api.SanitizeID(id) + ")"
	}
	return labels, tails
}
