package screens

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// clearRows forgets the rows shown before another list is asked for (a
// view, a filter, a page): until it arrives, and for good when it fails, the
// old list's rows must not stand under the new one's title (pending
// activities read as "status: COMPLETED", the newest page's as an older
// one's). What follows the page is not known either. The list is not
// fetched yet, so a failure says "not loaded", not "no activities match".
// The page's cursors stay: [ and ] still page from the page left.
//
// A vote asked for whose dialog has not opened yet is withdrawn here, the
// one place every change of view, filter or page passes: its row is no
// longer the one highlighted. The command says so.
func (a *Activities) clearRows() tea.Cmd {
	var withdrawn tea.Cmd
	if a.asking != nil {
		withdrawn = a.withdrawVote("the list changed before the vote dialog opened: nothing was sent; select the activity and vote again")
	}
	a.items = nil
	a.older, a.olderUnknown, a.newerUnknown = false, "", ""
	a.fetched = time.Time{}
	a.seen = false
	a.forgetSettled()
	a.list.Table.Failed = ""
	a.list.Table.SetRead(false)
	a.setRows()
	return withdrawn
}

// clearList is clearRows before another view or filter: the page's cursors
// are the old list's, and mean nothing in the new one. Its command is
// clearRows'.
func (a *Activities) clearList() tea.Cmd {
	a.first, a.last = "", ""
	return a.clearRows()
}
