package screens

import "time"

// clearRows forgets the rows shown before another list is asked for (a
// view, a filter, a page): until it arrives, and for good when it fails, the
// old list's rows must not stand under the new one's title (pending
// activities read as "status: COMPLETED", the newest page's as an older
// one's). What follows the page is not known either. The list is not
// fetched yet, so a failure says "not loaded", not "no activities match".
// The page's cursors stay: [ and ] still page from the page left.
func (a *Activities) clearRows() {
	a.items = nil
	a.older, a.olderUnknown, a.newerUnknown = false, "", ""
	a.fetched = time.Time{}
	a.seen = false
	a.forgetSettled()
	a.list.Table.Failed = ""
	a.setRows()
}

// clearList is clearRows before another view or filter: the page's cursors
// are the old list's, and mean nothing in the new one.
func (a *Activities) clearList() {
	a.first, a.last = "", ""
	a.clearRows()
}
