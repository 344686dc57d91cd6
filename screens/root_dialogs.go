// The root's dialogs: opening, arming, sizing, and the notice of one asked for.

package screens

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// openDialog pushes d and sizes it for the body.
func (r *Root) openDialog(d Dialog) {
	if a, ok := d.(armingDialog); ok {
		a.guard().reset() // reopened: keys typed ahead of it count no more than the first time
	}
	r.dialogs.Push(d)
	r.sizeDialogs()
}

// startArming starts the tick that arms each committing dialog on the stack
// that is not armed or arming yet (opened, or put in its form's place).
func (r *Root) startArming() tea.Cmd {
	var cmds []tea.Cmd
	for _, d := range r.dialogs.dialogs {
		a, ok := d.(armingDialog)
		if !ok || a.guard().token != 0 {
			continue
		}
		r.armTokens++
		token := r.armTokens
		a.guard().token = token
		cmds = append(cmds, r.common.Tick(DialogArmDelay, func(time.Time) tea.Msg { return dialogArmedMsg{token: token} }))
	}
	return tea.Batch(cmds...)
}

// sizeDialogs gives every sized dialog the size of the body it is drawn
// over, after every message as the screens are sized: a notice that wraps
// onto more lines, or help that grows, takes rows from the body, and a dialog
// that still judged what had been read, or scrolled, by its old taller size
// let y answer with lines that were no longer on screen. The help follows
// the top dialog's keys, which follow its size (it may start to scroll), so
// the body is measured again until it stays the same. Nothing while the
// window is too small: no dialog is drawn then, and a size never drawn must
// not count as on screen.
func (r *Root) sizeDialogs() {
	if r.tooSmall() || r.dialogs.Len() == 0 {
		return
	}
	_, _, bodyH := r.layout()
	for range 3 {
		for _, d := range r.dialogs.dialogs {
			if sd, ok := d.(SizedDialog); ok {
				sd.SetSize(r.width, bodyH)
			}
		}
		_, _, again := r.layout()
		if again == bodyH {
			return
		}
		bodyH = again
	}
}

// noteDialogAsked starts dropping keys when the input x just handled asked
// for a dialog.
func (r *Root) noteDialogAsked(x any) {
	if a, ok := x.(dialogAsker); ok && a.takeDialogAsked() {
		r.dialogAwaited = true
	}
}

// dialogArrived stops dropping keys, and forgets what any screen asked for
// outside a key (its dialog is this one or came before).
func (r *Root) dialogArrived() {
	r.dialogAwaited = false
	for _, s := range r.screens {
		if a, ok := s.(dialogAsker); ok {
			a.takeDialogAsked()
		}
	}
}
