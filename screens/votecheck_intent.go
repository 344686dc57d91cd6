package screens

import (
	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui"
)

// intentCheckLine is the detail's line by the intent when no verified
// signed submission binds it (api.CheckActivityVotes), in the warning
// style, or only partly; "" when it is checked. The reasons hold no text
// from the service.
func intentCheckLine(c *Common, in api.IntentCheck) string {
	switch in.State {
	case api.IntentNotChecked:
		return c.Theme.Warn.Render(ui.Clean("⚠ intent NOT checked: " + in.Reason + " — read the intent with care: approvals sign the fingerprint, not the intent shown"))
	case api.IntentPartlyChecked:
		return c.Theme.Muted.Render(ui.Clean("intent partly checked: " + in.Reason))
	}
	return ""
}

// intentCheckWarning is the vote dialog's warning, before its prediction,
// when approving act whose intent no verified signed submission binds ("" when
// one does). Not an accusation: a passkey requester's vote, or one
// recorded before votes carried messages, cannot be checked either.
func intentCheckWarning(c *Common, act *api.Activity) string {
	_, in := api.CheckActivityVotes(*act, c.Org.Users)
	if in.State != api.IntentNotChecked {
		return ""
	}
	return ui.Clean("WARNING: " + in.Reason + "; you approve the fingerprint, not this intent")
}

// sameUsers reports whether x and y are the same user list (the one the
// console holds, not merely equal), for checks cached per list.
func sameUsers(x, y []api.User) bool {
	return len(x) == len(y) && (len(x) == 0 || &x[0] == &y[0])
}
