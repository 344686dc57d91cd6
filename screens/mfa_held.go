package screens

import (
	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui"
)

// holdOpen takes the open policy's data from the last load, or marks it gone,
// keeping what was shown: a policy deleted meanwhile must not read as if it
// still applied.
func (m *MfaPolicies) holdOpen() {
	for _, p := range m.items {
		if p.MfaPolicyID == m.openID {
			m.openPolicy, m.openGone = p, ""
			return
		}
	}
	m.openGone = "the service no longer lists this MFA policy"
}

// goneNote is the line atop the open policy's detail when the last load no
// longer lists it ("" while listed, or for another policy).
func (m *MfaPolicies) goneNote(p api.MfaPolicy) string {
	if m.openGone == "" || p.MfaPolicyID != m.openID {
		return ""
	}
	return "⚠ no longer listed (" + m.openGone + "): shown as last loaded — esc goes back"
}

// goneToast says, once, that the open policy is no longer listed.
func (m *MfaPolicies) goneToast() tea.Cmd {
	return ui.Toast("MFA policy "+api.NameWithID(m.openPolicy.MfaPolicyName, m.openID)+" is no longer listed: shown as last loaded — esc goes back", true)
}
