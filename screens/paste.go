package screens

import (
	tea "charm.land/bubbletea/v2"
)

// formScreen is a screen with a form or an editor of its own (a dialog's
// form gets pastes through the dialog stack). While it captures and no list
// filter is open, the root gives it every paste through pasteIntoForm, so a
// screen whose Update handles key presses only cannot drop one.
type formScreen interface {
	Screen
	// pasteIntoForm gives the paste to the open form or editor, or says why
	// it cannot take it. The paste comes as it was pasted, line breaks and
	// all: the form's field makes it one line (ui.Field.OneLine), so that an
	// expression field can drop each line's comment before joining.
	pasteIntoForm(tea.PasteMsg) tea.Cmd
}
