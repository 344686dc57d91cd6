package screens

import (
	"strings"

	tea "charm.land/bubbletea/v2"
)

// formScreen is a screen with a form or an editor of its own (a dialog's
// form gets pastes through the dialog stack). While it captures and no list
// filter is open, the root gives it every paste through pasteIntoForm, so a
// screen whose Update handles key presses only cannot drop one.
type formScreen interface {
	Screen
	// pasteIntoForm gives the paste to the open form or editor, or says why
	// it cannot take it.
	pasteIntoForm(tea.PasteMsg) tea.Cmd
}

// pastedLine makes a paste one line for an input (every input of the
// console is one line): line breaks and tabs inside become a space each,
// those at the ends go. Spaces are kept as pasted, so a quoted value in a
// condition stays what it was; the input drops any other control character.
func pastedLine(s string) string {
	s = strings.Trim(s, "\r\n\t")
	s = strings.ReplaceAll(s, "\r\n", " ")
	return strings.Map(func(r rune) rune {
		if r == '\r' || r == '\n' || r == '\t' {
			return ' '
		}
		return r
	}, s)
}
