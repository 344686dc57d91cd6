package screens

import (
	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/ui"
)

// lockOutLiftedMsg tells the screens that the service answers the console's
// key again: the polls the lock-out stopped start again.
type lockOutLiftedMsg struct{}

// syncLockOut locks the console out when the latest reply refused the key it
// signs with (deleted, by this console or another member's vote, or
// expired): the screen whose request failed says so through errorText, the
// polls stop (Common.LockedOut), as every one could only fail, and a toast
// says it on whatever screen shows. A later reply the service answered lifts
// it: the refusal was not the key's fate (a proxy's, or a replica's that had
// not yet seen a new key), and the polls resume as they were.
func (r *Root) syncLockOut() tea.Cmd {
	q, ok := r.common.Reader.(queriesOnly)
	if !ok {
		return nil
	}
	switch refused := q.refused.Load(); {
	case refused && r.common.LockedOut == "":
		r.common.LockedOut = "the service refuses this console's key (deleted or expired): " + lockedOutAdvice
		return ui.Toast(r.common.LockedOut, true)
	case !refused && r.common.LockedOut != "":
		r.common.LockedOut = ""
		return tea.Batch(ui.Toast("the service answers this console's key again", false), r.broadcast(lockOutLiftedMsg{}))
	}
	return nil
}
