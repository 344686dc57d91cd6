package screens

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui"
)

// mfaStatusText is the user's MFA status for the pending activities,
// cleaned and styled: its heading, then a block of lines per activity whose
// first line names the activity.
type mfaStatusText struct {
	head   []string
	blocks []mfaStatusBlock
}

type mfaStatusBlock struct {
	activity api.Activity
	lines    []string
}

// statusText reads the status of each pending activity checked.
func (m *MfaPolicies) statusText() mfaStatusText {
	th := m.c.Theme
	var t mfaStatusText
	if m.fetched.IsZero() && m.err != "" {
		// A count of 0 would read as "nothing pending".
		t.head = []string{th.Section.Render(ui.Clean(fmt.Sprintf("MFA status of %s: not loaded: %s", m.userText(), m.err)))}
		return t
	}
	if len(m.items) == 0 && m.err == "" && !m.loading {
		// The statuses are not asked for then (no policy can apply): a count of
		// 0 would read as "nothing pending".
		t.head = []string{th.Section.Render(ui.Clean(fmt.Sprintf("MFA status of %s: not asked, as %s has no MFA policy that could apply", m.userText(), m.userText())))}
		return t
	}
	t.head = []string{th.Section.Render(ui.Clean(fmt.Sprintf("MFA status of %s for pending activities (%s)", m.userText(), checkedOf(len(m.statuses), m.pending))))}
	for _, s := range m.statuses {
		// Spelt as the WHAT column of Activities, with its id (the WHAT of
		// some holds an id of its own: "delete TVC deployment 01a2…").
		head := intentWhat(m.c, &s.activity) + " (activity " + api.SanitizeID(s.activity.ID) + ")"
		if s.activity.Status == api.StatusAuthenticatorsNeeded {
			head += " [held for MFA: " + api.StatusAuthenticatorsNeeded + "]"
		}
		var lines []string
		switch {
		case len(s.statuses) == 0 && !s.voted && s.unread:
			lines = append(lines, head+": not voted yet; which MFA policy would apply: "+api.CannotTellParams)
		case len(s.statuses) == 0 && !s.voted && s.expected == nil:
			lines = append(lines, head+": not voted yet; no MFA policy would apply")
		case len(s.statuses) == 0 && !s.voted:
			lines = append(lines, fmt.Sprintf("%s: not voted yet; policy %s would apply, asking for", head, api.Quote(s.expected.MfaPolicyName)))
			for _, step := range describeSteps(s.expected.RequiredAuthenticationMethods, consoleCredentials(m.c, m.user, false)) {
				lines = append(lines, "  "+step)
			}
		case len(s.statuses) == 0:
			lines = append(lines, head+": no MFA policy applies")
		}
		for _, st := range s.statuses {
			d := describeMfaStatus(st, m.userName(), m.policyName(st.MfaPolicyID), consoleCredentials(m.c, m.user, false))
			d[0] = head + " — " + d[0]
			lines = append(lines, d...)
		}
		for i := range lines {
			lines[i] = ui.Clean(lines[i])
		}
		t.blocks = append(t.blocks, mfaStatusBlock{activity: s.activity, lines: lines})
	}
	return t
}

// statusLines are the status as lines, under the list.
func (m *MfaPolicies) statusLines() []string {
	t := m.statusText()
	lines := t.head
	for _, b := range t.blocks {
		lines = append(lines, b.lines...)
	}
	return lines
}

// statusPane is the status in full, for the pane s opens: each activity's
// lines under a pointer that marks the chosen one, which A opens.
func (m *MfaPolicies) statusPane() string {
	t := m.statusText()
	lines := t.head
	chosen := m.choice.index(activityIDs(m.statusActivities()))
	if chosen < 0 && len(t.blocks) > 0 {
		lines = append(lines, m.c.Theme.Warn.Render(m.choice.goneText(m.keys.Up, m.keys.Down)))
	}
	for i, b := range t.blocks {
		for j, l := range b.lines {
			if j == 0 {
				lines = append(lines, m.choice.pointer(i, chosen, len(lines))+l)
			} else {
				lines = append(lines, "  "+l)
			}
		}
		if i == chosen {
			m.choiceEnd = len(lines) - 1
		}
	}
	return strings.Join(lines, "\n")
}

// statusActivities are the pending activities the status lists, in order.
func (m *MfaPolicies) statusActivities() []api.Activity {
	acts := make([]api.Activity, len(m.statuses))
	for i, s := range m.statuses {
		acts[i] = s.activity
	}
	return acts
}

// whyNoStatusActivity says why no activity of the MFA status can be opened
// now, "" when the chosen one can.
func (m *MfaPolicies) whyNoStatusActivity() string {
	switch {
	case !m.statusOpen || !m.list.IsOpen():
		return "open the MFA status first (" + m.keys.Status.Help().Key + "), then choose an activity with " +
			m.keys.Up.Help().Key + "/" + m.keys.Down.Help().Key
	case len(m.statuses) == 0:
		return "the MFA status lists no pending activity to open"
	}
	return ""
}

// statusKey handles the keys of the open MFA status that lead to an
// activity: ↑/↓ choose one, A (or enter) opens it in Activities. handled is
// false for other keys (pgup/pgdn scroll).
func (m *MfaPolicies) statusKey(k tea.KeyPressMsg) (cmd tea.Cmd, handled bool) {
	if opensActivity(k, m.keys.OpenActivity, m.list.Keys.Open) {
		if why := m.whyNoStatusActivity(); why != "" {
			return ui.Toast(why, true), true
		}
		return m.choice.open(m.statusActivities(), "the MFA status lists no pending activity to open", m.keys.Up, m.keys.Down), true
	}
	if !m.choice.move(k, m.keys.Up, m.keys.Down, activityIDs(m.statusActivities())) {
		return nil, false
	}
	m.list.SetDetail(m.statusPane())
	// The chosen activity's lines in view as far as they fit, its first
	// line always.
	m.list.Pane.ShowLine(m.choiceEnd)
	m.list.Pane.ShowLine(m.choice.line)
	return nil, true
}

// syncStatusKeys enables the keys of the open MFA status.
func (m *MfaPolicies) syncStatusKeys() {
	on := m.whyNoStatusActivity() == ""
	m.keys.OpenActivity.SetEnabled(on)
	m.keys.Up.SetEnabled(on)
	m.keys.Down.SetEnabled(on)
}

// statusHelp are the keys of the open MFA status, for the short help.
func (m *MfaPolicies) statusHelp() []key.Binding {
	pane := m.list.Pane.KeyBindings()
	if m.keys.OpenActivity.Enabled() {
		return append([]key.Binding{m.keys.Up, m.keys.Down, m.keys.OpenActivity, m.list.Keys.Back}, pane[2:4]...)
	}
	return append([]key.Binding{m.list.Keys.Back}, pane[:4]...)
}
