package cli

import (
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

// usersToCheck reports whether the organization's users are worth reading
// for a's vote checks: a vote verified (whose key signed it), or one under
// a passkey's or an unknown scheme, which FAILS when the list holds its
// key as the voter's API key (api.SchemeContradiction).
func usersToCheck(a api.Activity) bool {
	if anyVerified(api.CheckVotes(a)) {
		return true
	}
	for _, v := range a.Votes {
		if v.Scheme != "" && !api.KnownAPIScheme(v.Scheme) {
			return true
		}
	}
	return false
}

// vigilField is the field vigil writes that k spells (in any case).
func vigilField(k string) string {
	if strings.EqualFold(k, "intentCheck") {
		return "intentCheck"
	}
	return "voteChecks"
}
