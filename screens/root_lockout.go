package screens

import (
	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/ui"
)

// lockOutIfRefused locks the console out the first time a reply refused the
// key it signs with (deleted, by this console or another member's vote, or
// expired): the screen whose request failed says so through errorText, the
// polls stop (Common.LockedOut), as every one could only fail, and a toast
// says it on whatever screen shows.
func (r *Root) lockOutIfRefused() tea.Cmd {
	q, ok := r.common.Reader.(queriesOnly)
	if !ok || r.common.LockedOut != "" || !q.refused.Load() {
		return nil
	}
	r.common.LockedOut = "the service refuses this console's key (deleted or expired): " + lockedOutAdvice
	return ui.Toast(r.common.LockedOut, true)
}
