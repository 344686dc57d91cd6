package screens

import tea "charm.land/bubbletea/v2"

// What the console itself changes, it shows: after its own submit or vote,
// the screens that show data derived from activities (the MFA status of
// pending activities, the recent evaluations, the keys' pending deletions)
// read it again — at once when showing, else when next shown — instead of
// keeping the counts they loaded before it until r.

// activitiesChangedMsg tells every screen that the console submitted or voted:
// data derived from activities is stale. The root broadcasts it after the
// submit's or vote's own message.
type activitiesChangedMsg struct{}

// screenShownMsg tells the active screen that it is showing: it became the
// active screen, or it was showing when activities changed. A screen whose
// activity-derived data went stale reloads it then.
type screenShownMsg struct{}

// screenHiddenMsg tells the screen that was active that another one is: a
// screen that polls stops until it is shown again.
type screenHiddenMsg struct{}

// activityChange is a message that reports the outcome of a submit or a vote
// this console made: whatever its outcome, activities may have changed.
type activityChange interface{ changesActivities() }

func (activityVotedMsg) changesActivities()    {}
func (voteRecheckedMsg) changesActivities()    {}
func (opSubmittedMsg) changesActivities()      {}
func (featureSubmittedMsg) changesActivities() {}
func (policyCreatedMsg) changesActivities()    {}
func (mfaCreatedMsg) changesActivities()       {}
func (keysDeletedMsg) changesActivities()      {}

// announceActivitiesChanged broadcasts activitiesChangedMsg and tells the
// active screen it is showing, so that it reloads at once.
func (r *Root) announceActivitiesChanged() tea.Cmd {
	return tea.Batch(r.broadcast(activitiesChangedMsg{}), r.showActive())
}

// showActive sends screenShownMsg to the active screen, after the tick it
// missed while hidden (tickScreens), if any: it then shows what a screen
// rebuilt at every tick would.
func (r *Root) showActive() tea.Cmd {
	var caughtUp, cmd tea.Cmd
	if r.clockOwed[r.active] {
		r.clockOwed[r.active] = false
		r.screens[r.active], caughtUp = r.screens[r.active].Update(clockMsg{})
	}
	r.screens[r.active], cmd = r.screens[r.active].Update(screenShownMsg{})
	return tea.Batch(caughtUp, cmd)
}

// tickScreens sends the clock's tick to every screen: seen by the active
// one, unseen by the others, which owe it until shown (showActive).
func (r *Root) tickScreens() tea.Cmd {
	cmds := make([]tea.Cmd, len(r.screens))
	for i, s := range r.screens {
		unseen := i != r.active
		if unseen {
			r.clockOwed[i] = true
		}
		r.screens[i], cmds[i] = s.Update(clockMsg{unseen: unseen})
	}
	return tea.Batch(cmds...)
}

// hide sends screenHiddenMsg to the screen at index i.
func (r *Root) hide(i int) tea.Cmd {
	var cmd tea.Cmd
	r.screens[i], cmd = r.screens[i].Update(screenHiddenMsg{})
	return cmd
}

// staleOnChange is a screen's part of this: stale is set by
// activitiesChangedMsg and taken by screenShownMsg.
type staleOnChange struct{ stale bool }

// take reports whether msg asks the screen to reload: it is showing, and
// activities changed since its last load.
func (s *staleOnChange) take(msg tea.Msg) bool {
	switch msg.(type) {
	case activitiesChangedMsg:
		s.stale = true
	case screenShownMsg:
		if s.stale {
			s.stale = false
			return true
		}
	}
	return false
}
