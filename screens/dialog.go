package screens

import (
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/ui"
	"github.com/vigil-console/vigil/ui/theme"
)

// Dialog is a modal on the root model's overlay stack (crush's model): the top
// dialog receives every key, paste and mouse event before any screen; the screens
// keep receiving every other message underneath it.
type Dialog interface {
	// ID names the dialog; opening a dialog whose ID is already on the stack
	// brings that one to the top instead of stacking a second copy.
	ID() string
	// Update handles an input; returning a nil Dialog closes it. A dialog reports
	// its outcome through the command (a message its screen handles).
	Update(msg tea.Msg) (Dialog, tea.Cmd)
	// View renders the dialog's box in at most width×height cells; the root
	// centres it over the body.
	View(th *theme.Theme, width, height int) string
	// Keys are the dialog's keys for help while it is on top.
	Keys() ui.KeyMap
}

// SizedDialog is a dialog that lays itself out for the body it is drawn over;
// the root calls SetSize when it opens and after every message (the window,
// a notice or the help may have changed the body), so that View has nothing
// to compute and the dialog's size is always the one it is drawn at.
type SizedDialog interface {
	Dialog
	SetSize(width, height int)
}

// drawnDialog is a dialog told the size it was drawn at each time the root
// draws it on top: what was on screen is what was drawn, not every size it
// was given.
type drawnDialog interface {
	Dialog
	Drawn(width, height int)
}

// OpenDialogMsg asks the root to push a dialog; screens send it with OpenDialog.
type OpenDialogMsg struct{ Dialog Dialog }

// CloseDialogMsg asks the root to remove the dialog with this ID ("" = the top one).
type CloseDialogMsg struct{ ID string }

// OpenDialog returns the command that pushes d onto the root's dialog stack.
func OpenDialog(d Dialog) tea.Cmd { return func() tea.Msg { return OpenDialogMsg{Dialog: d} } }

// CloseDialog returns the command that closes the dialog with this ID.
func CloseDialog(id string) tea.Cmd { return func() tea.Msg { return CloseDialogMsg{ID: id} } }

// dialogStack is the root's overlay stack, bottom first.
type dialogStack struct{ dialogs []Dialog }

func (s *dialogStack) Len() int { return len(s.dialogs) }

func (s *dialogStack) Top() Dialog {
	if len(s.dialogs) == 0 {
		return nil
	}
	return s.dialogs[len(s.dialogs)-1]
}

// dismissed tells d, if it asks to know, that it left the stack.
func dismissed(d Dialog) {
	if g, ok := d.(interface{ dismiss() }); ok {
		g.dismiss()
	}
}

// Remove takes d itself off the stack, wherever it is; nothing when it is
// not there (closed already, or another dialog under its ID).
func (s *dialogStack) Remove(d Dialog) {
	for i, x := range s.dialogs {
		if x == d {
			s.dialogs = append(s.dialogs[:i:i], s.dialogs[i+1:]...)
			dismissed(d)
			return
		}
	}
}

func (s *dialogStack) Push(d Dialog) {
	if d == nil {
		return
	}
	s.Close(d.ID())
	s.dialogs = append(s.dialogs, d)
}

// Close removes the dialog with this ID, or the top one when id is "".
func (s *dialogStack) Close(id string) {
	if id == "" {
		if n := len(s.dialogs); n > 0 {
			dismissed(s.dialogs[n-1])
			s.dialogs = s.dialogs[:n-1]
		}
		return
	}
	for i, d := range s.dialogs {
		if d.ID() == id {
			s.dialogs = append(s.dialogs[:i:i], s.dialogs[i+1:]...)
			dismissed(d)
			return
		}
	}
}

// Update gives msg to the top dialog, and drops it when it closes itself.
func (s *dialogStack) Update(msg tea.Msg) tea.Cmd {
	n := len(s.dialogs)
	if n == 0 {
		return nil
	}
	d, cmd := s.dialogs[n-1].Update(msg)
	if d == nil {
		dismissed(s.dialogs[n-1])
		s.dialogs = s.dialogs[:n-1]
	} else {
		s.dialogs[n-1] = d
	}
	return cmd
}

// A key that commits (y) counts only when typed after the question appeared.
// Keys typed ahead arrive in one burst (a word typed where no filter was open,
// a paste, tmux send-keys): "/daisy" in a record opened a dialog with d and
// answered it with y. So a committing dialog starts unarmed; the root arms it
// on a tick DialogArmDelay after it opened, and a y before that is swallowed
// with a notice. The tick is a message, not a clock read: keys already queued
// when the dialog opened are handled before it arrives. Cancel keys work at once.

// DialogArmDelay is how long after a confirm dialog opens its y starts to count.
const DialogArmDelay = 400 * time.Millisecond

// typedAheadNotice is what a confirm says when it swallowed a y.
const typedAheadNotice = "press y again: keys typed before this question appeared are ignored"

// armingDialog is a dialog whose committing key waits to be armed.
type armingDialog interface {
	Dialog
	guard() *armGuard
}

// dialogArmedMsg arms the dialog whose arming the root started with token.
type dialogArmedMsg struct{ token int }

// armGuard is the arming state of a committing dialog; the zero value is
// unarmed, waiting for the root to start arming it.
type armGuard struct {
	token int // the root's token for the tick that arms it; 0: not started
	armed bool
}

// reset makes the guard wait again, as when its dialog is (re)opened.
func (g *armGuard) reset() { *g = armGuard{} }

// arm arms the guard when token is the one its tick carries.
func (g *armGuard) arm(token int) {
	if g.token != 0 && g.token == token {
		g.armed = true
	}
}

// answer is c's answer to msg, except that a Yes before the guard is armed
// is swallowed and the dialog says so.
func (g *armGuard) answer(c *ui.Confirm, msg tea.Msg) ui.Answer {
	a := c.Answer(msg)
	if a == ui.Yes && !g.armed {
		c.Notice = typedAheadNotice
		return ui.Undecided
	}
	return a
}

// ConfirmDialog is a yes/no question on the stack: No is the default (enter, n,
// esc and q answer No; only y answers Yes). Its answer is the command given for it,
// so the screen that asked receives a message of its own.
type ConfirmDialog struct {
	// dialogAnswer: the yes of NewConfirmDialogMsg, for the root at once.
	dialogAnswer
	// dialogAsk: a No that reopens the form it confirms (reopensOnNo).
	dialogAsk
	id            string
	confirm       ui.Confirm
	onYes         tea.Cmd
	yesNow        func() tea.Cmd // run by Update itself on y (NewConfirmDialogNow)
	yesMsg        tea.Msg        // handled by the root with the y (NewConfirmDialogMsg)
	onNo          tea.Cmd
	noReopens     Dialog // asked for on any No instead of onNo (reopensOnNo)
	width, height int    // of the body it is drawn over (SizedDialog)
	// drawn is the size the root last drew it at (Drawn), zero once what it
	// shows changed since (a scroll, a restatement): the only window known
	// to have been on screen. A dialog under another one is sized but never
	// drawn.
	drawn         [2]int
	arming        armGuard
	unreadNoticed bool // the notice is UnreadNotice's: cleared once read to the end
	// changed: what the dialog restates changed while it was open (restate):
	// the next y only acknowledges the new text, it does not answer.
	changed bool
	// notice is the notice the dialog was given, shown again once a change
	// was acknowledged.
	notice string
	// restated is the notice restate gave, shown again at release.
	restated string
	// held says what y waits for (hold), "" once it answers: y pressed
	// meanwhile sends nothing (heldY notes it was), so nothing is answered
	// on a text that may be about to change.
	held  string
	heldY bool
	// caveat stays said with whatever notice the dialog shows again
	// (release): what it shows may be stale.
	caveat string
	// withdrawn says why y can no longer answer (withdraw): the question
	// no longer holds.
	withdrawn string
	gone      bool // off the root's stack (dismiss)
}

// NewConfirmDialog asks c; onYes runs on y, onNo (may be nil) on any No.
func NewConfirmDialog(id string, c ui.Confirm, onYes, onNo tea.Cmd) *ConfirmDialog {
	return &ConfirmDialog{id: id, confirm: c, onYes: onYes, onNo: onNo}
}

// NewConfirmDialogNow is NewConfirmDialog whose yes runs inside the root's
// Update, not as a message that arrives later: what it starts (a vote in
// flight) is known before the next key is handled, so a q typed right after y
// finds it in flight and asks, instead of quitting with the vote never sent.
// yes must do no I/O itself; it returns the command that does.
func NewConfirmDialogNow(id string, c ui.Confirm, yes func() tea.Cmd, onNo tea.Cmd) *ConfirmDialog {
	return &ConfirmDialog{id: id, confirm: c, yesNow: yes, onNo: onNo}
}

// NewConfirmDialogMsg is NewConfirmDialog whose yes is a message the root
// handles inside the Update of the y, as NewConfirmDialogNow's yes runs
// there: a submit's yes marks it in flight (opSendMsg for an operation form,
// a screen's own message for its submit) before any key typed after the y,
// and its handler returns the command that does the I/O.
func NewConfirmDialogMsg(id string, c ui.Confirm, yes tea.Msg, onNo tea.Cmd) *ConfirmDialog {
	return &ConfirmDialog{id: id, confirm: c, yesMsg: yes, onNo: onNo}
}

// reopensOnNo makes any No reopen form (the dialog the question came from,
// as it was), asked for as a key asks for a dialog: keys typed for the form
// before it is back are held back, not handed to the screen below.
func (d *ConfirmDialog) reopensOnNo(form Dialog) *ConfirmDialog {
	d.noReopens = form
	return d
}

func (d *ConfirmDialog) ID() string { return d.id }

func (d *ConfirmDialog) Update(msg tea.Msg) (Dialog, tea.Cmd) {
	if d.confirm.Scroll(msg, d.width, d.height) {
		if d.unreadNoticed {
			if lines, _ := d.confirm.Unread(d.width, d.height); lines == 0 {
				// Read to the end: y answers now, so the notice no longer holds.
				d.confirm.Notice, d.unreadNoticed = d.notice, false
			}
		}
		d.drawn = [2]int{} // the window moved: not drawn yet
		return d, nil
	}
	switch d.arming.answer(&d.confirm, msg) {
	case ui.Yes:
		if d.withdrawn != "" {
			d.confirm.Notice = d.withdrawn
			return d, nil
		}
		if d.held != "" {
			d.heldY = true
			d.confirm.Notice = d.held + " — y was not sent: it answers once what is read has been shown"
			return d, nil
		}
		if d.changed {
			d.changed = false
			d.confirm.Notice = orElse(d.notice, "y now answers what is shown")
			return d, nil
		}
		if lines, _ := d.confirm.Unread(d.width, d.height); lines > 0 {
			// At a small window the lines below (an unknown sender, what the
			// vote would do, the fingerprint) were never shown: y waits until
			// they have been. Any hidden line, not only a warned one: the
			// rule is simpler to state, and a line not marked as a warning
			// can still be what the answer is about.
			d.confirm.Notice, d.unreadNoticed = ui.UnreadNotice, true
			if d.confirm.UnreadAbove(d.width, d.height) {
				d.confirm.Notice = ui.UnreadAboveNotice
			}
			return d, nil
		}
		switch {
		case d.yesNow != nil:
			return nil, d.yesNow()
		case d.yesMsg != nil:
			d.answerNow(d.yesMsg)
			return nil, nil
		}
		return nil, d.onYes
	case ui.No:
		if d.noReopens != nil {
			return nil, d.askDialog(d.noReopens)
		}
		return nil, d.onNo
	}
	return d, nil
}

func (d *ConfirmDialog) guard() *armGuard { return &d.arming }

// restate shows next in place of what the dialog asked, after what it
// restates changed while it was open (what says what changed): a y typed for
// the old text must not answer the new one, so the next y only acknowledges
// it, and the dialog says so.
func (d *ConfirmDialog) restate(next ui.Confirm, what string) {
	d.confirm.Restate(next)
	d.notice, d.changed, d.unreadNoticed = joinNotices(next.Notice, d.caveat), true, false
	d.drawn = [2]int{} // the new text has not been drawn
	d.restated = "changed while open: " + what + "; read it again: the next y only confirms you have, the y after it answers"
	if d.held == "" { // while held, the notice says what it waits for; release says this
		d.confirm.Notice = d.restated
	}
}

// hold makes y answer nothing until release, the notice saying why (what
// the dialog waits for).
func (d *ConfirmDialog) hold(why string) {
	d.notice = orElse(d.notice, d.confirm.Notice)
	d.held, d.heldY = why, false
	d.confirm.Notice = why
}

// release ends hold: y answers again (after the change, if what the dialog
// shows was restated meanwhile). caveat, when set, stays said with the
// dialog's notice from now on (what it shows may be stale); settled is what
// to say when nothing changed and y was pressed while held, so the member
// knows the next y answers.
func (d *ConfirmDialog) release(caveat, settled string) {
	if d.held == "" {
		return
	}
	d.held = ""
	if caveat != "" {
		d.caveat = caveat
		d.notice = joinNotices(d.notice, caveat)
	}
	switch {
	case d.changed:
		d.confirm.Notice = d.restated
	case caveat != "":
		d.confirm.Notice = d.notice
	case d.heldY:
		d.confirm.Notice = joinNotices(settled, d.notice)
	default:
		d.confirm.Notice = d.notice
	}
	d.heldY = false
}

// clearCaveat takes back the caveat release gave (what the dialog shows
// is no longer possibly stale), saying said once unless the notice shown
// says something that matters more (a restatement, a hold, a withdrawal,
// lines left unread).
func (d *ConfirmDialog) clearCaveat(said string) {
	if d.caveat == "" {
		return
	}
	if d.notice == d.caveat {
		d.notice = ""
	} else {
		d.notice = strings.TrimSuffix(d.notice, "; "+d.caveat)
	}
	d.caveat = ""
	if d.withdrawn != "" || d.held != "" || d.changed || d.unreadNoticed {
		return
	}
	d.confirm.Notice = joinNotices(said, d.notice)
}

// joinNotices says both notices, either alone when the other is "".
func joinNotices(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + "; " + b
}

// withdraw makes y answer nothing from now on, saying why.
func (d *ConfirmDialog) withdraw(why string) {
	d.withdrawn = why
	d.confirm.Notice = why
}

// dismiss marks the dialog as off the root's stack.
func (d *ConfirmDialog) dismiss() { d.gone = true }

func (d *ConfirmDialog) View(th *theme.Theme, width, height int) string {
	return d.confirm.View(th, width, height)
}

// SetSize implements SizedDialog: scrolling, and judging what has been
// read, need the window. A window that grows shows at least what the old one
// showed, and if the old one was drawn, that was on screen: it stays read.
// Only a drawn one: a dialog under another, or a size passed through
// between two frames, is never drawn, and a window that grew twice unseen
// would count lines as read that no frame showed. A window that shrinks (a
// notice or the help took rows, the terminal was made smaller) no longer
// shows all of it: what it hides counts as read only if it had been on
// screen before the last window, so that y waits until it is scrolled to
// again, as the dialog's "↓ … scroll to the end" then says.
func (d *ConfirmDialog) SetSize(width, height int) {
	if width == d.width && height == d.height {
		return
	}
	if d.width > 0 && d.height > 0 && width >= d.width && height >= d.height && d.drawn == [2]int{d.width, d.height} {
		d.confirm.Shown(d.width, d.height)
	}
	d.width, d.height = width, height
}

// Drawn implements drawnDialog: the root drew the dialog in width×height.
func (d *ConfirmDialog) Drawn(width, height int) { d.drawn = [2]int{width, height} }

func (d *ConfirmDialog) Keys() ui.KeyMap {
	k := d.confirm.Keys
	// Not sized yet (the root asks for the help before sizeDialogs sizes
	// it): wrapping the body 0 wide would cost a whole wrap for nothing.
	if d.width > 0 && d.height > 0 {
		k.Scrolls = d.confirm.Scrollable(d.width, d.height)
	}
	return k
}

// A key that asks for a dialog gets it one message later: OpenDialog is a
// command, and keys already queued behind that key (typed in one burst) arrive
// first. Handed to the screen below, a y meant for the vote's confirm copied
// the activity's id. So a screen or dialog says when the input it just handled
// asked for one (askDialog), and the root drops keys until a dialog arrives;
// the dialog still ignores y until it is armed.

// dialogAsker is a screen or a dialog that reports, once, that the input it
// handled last asked for a dialog.
type dialogAsker interface{ takeDialogAsked() bool }

// dialogAsk is embedded by screens and dialogs that open dialogs from a key.
type dialogAsk struct{ asked bool }

// askDialog is OpenDialog(d), noted so that the root holds back the keys
// that arrive before d does.
func (a *dialogAsk) askDialog(d Dialog) tea.Cmd {
	a.asked = true
	return OpenDialog(d)
}

func (a *dialogAsk) takeDialogAsked() bool {
	asked := a.asked
	a.asked = false
	return asked
}

// A submit asked for by a key is sent one message later when the key's
// answer is a command: a q typed right after it found nothing in flight and
// quit with the submit never sent, and a d typed after a deletion's y asked
// for a second deletion. So a dialog whose input starts a submit hands the
// root a message (answerNow) that the root handles before the next key.

// dialogAnswerer is a dialog that reports, once, the message the input it
// handled last answered with, for the root to handle at once.
type dialogAnswerer interface{ takeAnswer() tea.Msg }

// dialogAnswer is embedded by dialogs whose input may start a submit.
type dialogAnswer struct{ answer tea.Msg }

// answerNow gives msg to the root within the Update of the input.
func (a *dialogAnswer) answerNow(msg tea.Msg) { a.answer = msg }

func (a *dialogAnswer) takeAnswer() tea.Msg {
	msg := a.answer
	a.answer = nil
	return msg
}
