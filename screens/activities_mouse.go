package screens

import tea "charm.land/bubbletea/v2"

// ClickRow selects the clicked row of the list (not while a detail or a dialog
// is open). Line 0 of the screen is its heading; the table starts below it.
func (a *Activities) ClickRow(y int) tea.Cmd {
	if a.detail != nil || a.Capturing() {
		return nil
	}
	if a.list.ClickRow(y - 1) {
		a.syncKeys()
	}
	return nil
}
