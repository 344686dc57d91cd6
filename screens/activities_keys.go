package screens

import (
	"fmt"
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui"
)

// handleKey dispatches a key by the screen's mode: typing a filter, reading an
// open activity, or moving over the list. The keys that act on "the activity"
// (vote, copy, refresh, auto-refresh) work the same in the detail and the list.
func (a *Activities) handleKey(k tea.KeyPressMsg) tea.Cmd {
	if a.list.Filtering() {
		return a.filterKey(k)
	}
	if cmd, ok := a.activityKey(k); ok {
		return cmd
	}
	if a.detail != nil {
		return a.detailKey(k)
	}
	return a.listKey(k)
}

// filterKey: every key edits the filter (enter keeps it, esc clears it).
func (a *Activities) filterKey(k tea.KeyPressMsg) tea.Cmd {
	var cmd tea.Cmd
	a.list, cmd = a.list.Update(k)
	return cmd
}

// activityKey handles the keys that act on the selected or open activity and on
// the screen as a whole; ok is false for any other key.
func (a *Activities) activityKey(k tea.KeyPressMsg) (cmd tea.Cmd, ok bool) {
	switch {
	// Vote keys are matched even while disabled, so a press that cannot vote
	// says why (read-only, already voted…) instead of doing nothing.
	case pressed(k, a.keys.Approve), pressed(k, a.keys.Reject):
		return a.askVote(pressed(k, a.keys.Approve)), true
	// Matched while disabled too (nothing selected), so that a press says why.
	case pressed(k, a.keys.CopyID):
		return a.copyField(false), true
	case pressed(k, a.keys.CopyFP):
		return a.copyField(true), true
	case key.Matches(k, a.keys.Refresh):
		a.forgetSettled() // a manual refresh shows the list as the service has it
		cmds := []tea.Cmd{a.load(), a.recheckVote(), msgCmd(orgRetryMsg{})}
		if a.detail != nil {
			cmds = append(cmds, a.detail.load(a.c))
		}
		return tea.Batch(cmds...), true
	// Matched while disabled too (no refresh in the profile), so that a
	// press says why it does nothing.
	case pressed(k, a.keys.AutoRefresh):
		return a.toggleAutoRefresh(), true
	case key.Matches(k, a.keys.NewOperation):
		return a.askDialog(newPaletteDialog(operationCommands(a.c))), true
	}
	return nil, false
}

// detailKey: back to the list, or scroll the open activity. The list's own
// keys (struck through in help) say why they do nothing here.
func (a *Activities) detailKey(k tea.KeyPressMsg) tea.Cmd {
	if key.Matches(k, a.list.Keys.Back) {
		return a.closeDetail()
	}
	if a.list.FilterKeyInDetail(k) {
		return tea.Batch(a.closeDetail(), a.listKey(k))
	}
	for _, b := range []key.Binding{a.keys.Mode, a.keys.Status, a.keys.Type, a.list.Keys.Sort, a.list.Keys.ReverseSort, a.keys.NextPage, a.keys.PrevPage} {
		if pressed(k, b) {
			return ui.Toast(b.Help().Key+" ("+b.Help().Desc+") works on the list, not in an open activity: "+a.list.Keys.Back.Help().Key+" goes back to it", true)
		}
	}
	var cmd tea.Cmd
	a.list, cmd = a.list.Update(k)
	return cmd
}

// listKey: open, switch view, filter, page; the list moves, sorts and filters.
func (a *Activities) listKey(k tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(k, a.list.Keys.Open):
		return a.open()
	case key.Matches(k, a.keys.Mode):
		return a.toggleMode()
	case key.Matches(k, a.keys.Status) && a.all:
		return a.openStatusPicker()
	case key.Matches(k, a.keys.Type) && a.all:
		return a.openTypePicker()
	case !a.all && (pressed(k, a.keys.Status) || pressed(k, a.keys.Type)):
		return ui.Toast("filters are for the All view: press v", true)
	case key.Matches(k, a.keys.NextPage) && a.keys.NextPage.Enabled():
		// The list is newest first: the older page comes after the page's
		// last row. Settled activities kept on the list belong to the page
		// they settled on, so they go with it.
		a.before, a.after = "", a.last
		withdrawn := a.clearRows() // another page: nothing to compare it with
		return tea.Batch(withdrawn, a.load())
	case key.Matches(k, a.keys.PrevPage) && a.keys.PrevPage.Enabled():
		a.before, a.after = a.first, ""
		return tea.Batch(a.clearRows(), a.load())
	case pressed(k, a.keys.NextPage), pressed(k, a.keys.PrevPage):
		return ui.Toast(a.pagingBlock(pressed(k, a.keys.NextPage)), true)
	}
	var cmd tea.Cmd
	a.list, cmd = a.list.Update(k)
	return cmd
}

// pagingBlock says why ] or [ cannot page now.
func (a *Activities) pagingBlock(older bool) string {
	switch {
	case older && !a.all:
		return "no older pending activities: this page holds the oldest"
	case older:
		return "no older page: this is the oldest"
	default:
		return "this is the newest page"
	}
}

// askVote opens the vote's confirm dialog on the root's stack, or says why the
// vote is not possible.
func (a *Activities) askVote(approve bool) tea.Cmd {
	act := a.selected()
	if why := a.voteBlock(act, approve); why != "" {
		return ui.Toast(why, true)
	}
	v := a.pendingVote(act, approve)
	d := NewConfirmDialogNow(voteDialogID, v.dialog, func() tea.Cmd {
		a.asking = nil
		cmd := a.vote(*v)
		a.syncKeys() // a and x say a vote is in flight from now on
		return cmd
	}, nil)
	order := a.orders[act.ID]
	if a.detail != nil && act == &a.detail.activity {
		order = a.detail.order
	}
	// What the vote would do is what the member signs on, and the
	// organization may have changed since it was loaded in ways no copy
	// the console holds shows (a policy completed on a page not shown):
	// it is read again, y answers nothing until the read lands
	// (rereadLanded), and the dialog restates its prediction when the read
	// changes it (followVoteDialog), so the next y only confirms.
	d.hold(rereadingNotice)
	a.asking = &openVote{vote: v, dialog: d, shown: *act, order: order, at: a.c.Now(),
		awaited: a.c.OrgLoadsStarted + 1} // the root starts it on reloadOrgMsg
	return tea.Batch(a.askDialog(d), msgCmd(reloadOrgMsg{}))
}

// copyField copies the activity's id (or fingerprint), cleaned.
func (a *Activities) copyField(fingerprint bool) tea.Cmd {
	act := a.selected()
	if act == nil {
		return ui.Toast("nothing selected to copy", true)
	}
	what, val := "id", act.ID
	if fingerprint {
		what, val = "fingerprint", act.Fingerprint
	}
	val = ui.Clean(val)
	return tea.Batch(tea.SetClipboard(val), ui.Toast("copied "+what+" "+val, false))
}

func (a *Activities) toggleAutoRefresh() tea.Cmd {
	if a.c.Refresh <= 0 {
		return ui.Toast("auto-refresh is off in this profile (refresh = \"30s\" turns it on)", true)
	}
	if c := a.c; c.LockedOut != "" {
		return ui.Toast("auto-refresh stays off: "+c.LockedOut, true)
	}
	a.c.AutoPaused = !a.c.AutoPaused
	if a.auto() {
		a.autoGen++ // a fresh chain; the idle one stops
		return tea.Batch(ui.Toast("auto-refresh every "+a.c.Refresh.String(), false), a.tick())
	}
	return ui.Toast("auto-refresh paused", false)
}

// open shows the selected activity and fetches it afresh with its evaluations
// and app proofs.
func (a *Activities) open() tea.Cmd {
	act := a.selected()
	if act == nil {
		return nil
	}
	a.detail = newActivityDetail(a.c, *act, a.orders[act.ID], &a.list.Pane, &a.gens, &a.intents)
	row := *act
	a.detail.cursorRow = &row
	a.list.Open()
	return a.detail.load(a.c)
}

// toggleMode switches between the Pending and the All view.
func (a *Activities) toggleMode() tea.Cmd {
	a.all = !a.all
	a.before, a.after = "", ""
	a.list.Table.Empty, a.list.Table.Loading = "no pending activities — press v to see all", "loading the pending activities…"
	if a.all {
		a.list.Table.Empty, a.list.Table.Loading = "no activities match — s and t change the filters", "loading the activities…"
	}
	return tea.Batch(a.clearList(), a.load())
}

// openStatusPicker and openTypePicker choose the All view's filters, several
// values at once, on the root's dialog stack.
func (a *Activities) openStatusPicker() tea.Cmd {
	values := api.ActivityStatuses()
	return a.askDialog(newPickerDialog("status-filter", "Status filter", values, shortLabels(values, shortStatus), a.statuses,
		func(v []string) tea.Msg { return filterPickedMsg{kind: "status", values: v} }))
}

// openTypePicker offers the types vigil knows, and any well-formed type
// typed in its filter (the service takes any, as the CLI's --type does); a
// type typed before is listed, ticked.
func (a *Activities) openTypePicker() tea.Cmd {
	values := typeChoices()
	for _, t := range a.types {
		if !slices.Contains(values, t) {
			values = append(values, t)
		}
	}
	p := newPickerDialog("type-filter", "Type filter", values, shortLabels(values, shortType), a.types,
		func(v []string) tea.Msg { return filterPickedMsg{kind: "type", values: v} })
	p.acceptTyped(parseTypeFilter)
	return a.askDialog(p)
}

// parseTypeFilter reads a type typed in the type filter as the CLI reads
// --type (api.ParseActivityType).
func parseTypeFilter(text string) (string, error) {
	v, _, ok := api.ParseActivityType(text)
	if !ok {
		return "", fmt.Errorf("%q is not an activity type: type one such as create_users_v3 or %s (letters, digits and _ only)", text, api.TypeCreateUserTag)
	}
	return v, nil
}
