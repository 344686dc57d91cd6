package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/vigil-console/vigil/api"
)

// intentCheckText is the activity's intent check (api.CheckActivityVotes)
// as printed by the intent: whether a verified signed submission binds
// the type, organization and intent shown. Its reasons hold no text from
// the service.
func intentCheckText(c api.IntentCheck) string {
	if c.State == api.IntentNotChecked {
		return "WARNING: NOT checked: " + c.Reason + " — read the intent with care: approvals sign the fingerprint, not the intent shown"
	}
	return c.State + ": " + c.Reason
}

// intentWarning is the vote prompt's intent-check line when no verified
// submission of the requester shown binds the intent (users: the
// organization's user list, nil when not read), "" otherwise: the voter
// approves a fingerprint while reading an intent that may be any.
func intentWarning(a *api.Activity, users []api.User) string {
	_, in := api.CheckActivityVotes(*a, users)
	if in.State != api.IntentNotChecked {
		return ""
	}
	return "intent check: " + intentCheckText(in)
}

// warnIntentUnchecked says intentWarning on stderr, for an approval with
// --yes, which shows no prompt. The user list is read only when a
// requester is shown, the only case where it can change the check.
func warnIntentUnchecked(ctx context.Context, c proc, client *api.Client, a *api.Activity) {
	var users []api.User
	if api.SubmitterOf(*a) != "" {
		users, _ = exactUsers(ctx, client) // unread: checked without it
	}
	if w := intentWarning(a, users); w != "" {
		fmt.Fprintf(c.stderr, "vigil: warning: %s\n", w)
	}
}

// usersToCheck reports whether the organization's users are worth reading
// for a's vote checks: a vote verified (whose key signed it), or one under
// a passkey's or an unknown scheme (or none), which FAILS when the list holds its
// key as the voter's API key (api.SchemeContradiction).
func usersToCheck(a api.Activity) bool {
	if anyVerified(api.CheckVotes(a)) {
		return true
	}
	for _, v := range a.Votes {
		// "" too: a scheme blanked on the way is one vigil does not know.
		if !api.KnownAPIScheme(v.Scheme) {
			return true
		}
	}
	return false
}

// vigilField is the field vigil writes that k spells (in any case), with
// its article.
func vigilField(k string) string {
	if strings.EqualFold(k, "intentCheck") {
		return "an intentCheck"
	}
	return "a voteChecks"
}
