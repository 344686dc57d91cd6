package screens

import (
	"strconv"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui"
)

// showActivity takes the user to an activity in Activities, unless the user
// is typing: a reply (a submitted operation, a key deletion, a policy...)
// lands whenever it lands, and switching screens then would turn the
// letters still being typed into a filter or a form into the activity's
// keys (a approves, q quits). Then the jump is held, and a notice says how
// to take it: going to Activities opens the activity, unless the user has
// chosen an activity of their own since (byUser, goTo).
func (r *Root) showActivity(msg ShowActivityMsg) tea.Cmd {
	if r.typing() {
		r.heldJump = &msg
		return ui.Toast(heldJumpText(msg, r.activitiesKey()), false)
	}
	r.heldJump = nil
	// Neither is the activity the user is reading swapped under them: the
	// key they press next is meant for it.
	if open := r.openActivity(); r.active == r.activitiesIndex() && open != "" && open != msg.ID {
		return ui.Toast(notOpenedText(msg, open), false)
	}
	if i := r.activitiesIndex(); i >= 0 {
		r.active = i
	}
	return r.broadcast(msg)
}

// typing reports whether keys go to something the user is typing into or
// answering: the active screen's filter or form, or a dialog.
func (r *Root) typing() bool {
	return r.dialogs.Len() > 0 || r.dialogAwaited || capturing(r.screens[r.active])
}

// goTo makes screen i active, as the user asked (a key, a tab, the
// palette). Going to Activities, even when already there, shows the
// activity held while the user was typing.
func (r *Root) goTo(i int) tea.Cmd {
	if i < 0 || i >= len(r.screens) {
		return nil
	}
	r.active = i
	held := r.heldJump
	if held == nil || i != r.activitiesIndex() {
		return nil
	}
	// showActivity drops the held jump, and does not swap a detail the user
	// has open for it (keys typed right after the switch are meant for that
	// one): the reply's activity stays in the list, its notice in the
	// messages.
	return r.showActivity(*held)
}

// byUser runs the handling of the user's own input (a key, a click). A held
// jump is dropped once that input opened an activity: the user has chosen
// what to look at since the reply came, and the reply must not replace it
// later.
func (r *Root) byUser(handle func() tea.Cmd) tea.Cmd {
	before := r.openActivity()
	cmd := handle()
	if r.heldJump != nil {
		if now := r.openActivity(); now != "" && now != before {
			r.heldJump = nil
		}
	}
	return cmd
}

// openActivity is the ID of the activity open in Activities' detail, "" when
// none is.
func (r *Root) openActivity() string {
	if i := r.activitiesIndex(); i >= 0 {
		if a := r.screens[i].(*Activities); a.detail != nil {
			return a.detail.activity.ID
		}
	}
	return ""
}

// activitiesIndex is the index of the Activities screen, -1 without one.
func (r *Root) activitiesIndex() int {
	for i, s := range r.screens {
		if _, ok := s.(*Activities); ok {
			return i
		}
	}
	return -1
}

// activitiesKey is the key that goes to Activities ("1"), "" when no digit
// does.
func (r *Root) activitiesKey() string {
	if i := r.activitiesIndex(); i >= 0 && i < 9 {
		return strconv.Itoa(i + 1)
	}
	return ""
}

func heldJumpText(msg ShowActivityMsg, goKey string) string {
	what := jumpWhat(msg)
	how := "go to Activities"
	if goKey != "" {
		how = "press " + goKey + " (Activities)"
	}
	return "activity " + what + " is ready: " + how + " to open it once you are done typing"
}

// notOpenedText says that a held activity was not opened over the one the
// user has open, and where to find it.
func notOpenedText(msg ShowActivityMsg, open string) string {
	return "activity " + jumpWhat(msg) + " is ready but was not opened: you have " +
		ui.Clean(api.SanitizeID(open)) + " open (esc goes back to the list)"
}

// jumpWhat names the activity of a jump for a notice, cleaned.
func jumpWhat(msg ShowActivityMsg) string {
	what := ui.Clean(api.SanitizeID(msg.ID))
	if msg.Activity != nil {
		what = shortType(msg.Activity.Type) + " " + what
	}
	return what
}
