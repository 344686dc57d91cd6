package screens

import (
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui"
)

// The screens whose details lead to an activity (a policy's evaluations and
// the activities it decided, a webhook delivery, the MFA status of pending
// activities) open it in Activities with the same key and the same rules:
// the jump goes through the root (root_jump.go), so it never replaces an
// activity the user opened or is reading, and is held while the user types.

// newOpenActivityKey is the key that opens a detail's activity in Activities.
func newOpenActivityKey() key.Binding {
	return key.NewBinding(key.WithKeys("A"), key.WithHelp("A", "open in Activities"))
}

// opensActivity reports whether k opens the detail's activity: the open
// activity key, or the list's open key (enter), which goes one step further
// in a detail that leads to an activity, as it would from the list.
func opensActivity(k tea.KeyPressMsg, openActivity, listOpen key.Binding) bool {
	return key.Matches(k, openActivity) || openActivity.Enabled() && slices.Contains(listOpen.Keys(), k.String())
}

// showInActivities takes the user to act in Activities, shown at once while
// its fresh record loads.
func showInActivities(act api.Activity) tea.Cmd {
	return msgCmd(ShowActivityMsg{ID: act.ID, Activity: &act})
}

// activityChoice is the activity chosen among those a detail lists, which
// the open activity key opens. It is held by id, so that a refresh that
// reorders the list never moves the choice onto another activity (which
// could then be voted on).
type activityChoice struct {
	id   string // "" until the first is chosen
	line int    // the chosen activity's line in the detail, for ShowLine
}

// reset forgets the choice: the first listed is chosen next.
func (c *activityChoice) reset() { c.id = "" }

// index is the index in ids of the chosen activity, -1 when it is no longer
// there. Before any choice the first is chosen.
func (c *activityChoice) index(ids []string) int {
	if c.id == "" && len(ids) > 0 {
		c.id = ids[0]
	}
	return slices.Index(ids, c.id)
}

// move chooses the activity above or below the chosen one for up and down
// (staying at the first and the last); a choice that is gone starts again
// from the top. moved is false for other keys.
func (c *activityChoice) move(k tea.KeyPressMsg, up, down key.Binding, ids []string) (moved bool) {
	isUp, isDown := key.Matches(k, up), key.Matches(k, down)
	if len(ids) == 0 || !isUp && !isDown {
		return false
	}
	i := c.index(ids)
	switch {
	case i < 0:
		i = 0
	case isUp:
		i = max(i-1, 0)
	default:
		i = min(i+1, len(ids)-1)
	}
	c.id = ids[i]
	return true
}

// pointer marks the line of the i-th listed activity, chosen being the
// index of the choice; the chosen one's line is remembered.
func (c *activityChoice) pointer(i, chosen, line int) string {
	if i != chosen {
		return "  "
	}
	c.line = line
	return "▸ "
}

// goneText says that the chosen activity is no longer listed, and how to
// choose another.
func (c *activityChoice) goneText(up, down key.Binding) string {
	return "the activity chosen (" + ui.Clean(api.SanitizeID(c.id)) + ") is no longer among these; choose one with " +
		up.Help().Key + "/" + down.Help().Key
}

// open opens the chosen one of acts in Activities, or says why it cannot.
func (c *activityChoice) open(acts []api.Activity, none string, up, down key.Binding) tea.Cmd {
	if len(acts) == 0 {
		return ui.Toast(none, true)
	}
	i := c.index(activityIDs(acts))
	if i < 0 {
		return ui.Toast(c.goneText(up, down), true)
	}
	return showInActivities(acts[i])
}

// activityIDs are the ids of acts, in order.
func activityIDs(acts []api.Activity) []string {
	ids := make([]string, len(acts))
	for i, a := range acts {
		ids[i] = a.ID
	}
	return ids
}
