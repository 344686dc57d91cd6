package policy

import (
	"errors"
	"strings"

	"github.com/vigil-console/vigil/api"
)

// unreadableDenies are the deny policies of d that this vigil cannot
// compile: Decide fails closed on them (the activity waits for the root
// quorum), so no other policy's consensus can complete it.
func unreadableDenies(d Decision) []Policy {
	var out []Policy
	for _, pd := range d.Details {
		if pd.Outcome == api.OutcomeError && pd.Policy.Effect == api.EffectDeny && pd.Policy.Compiled == nil &&
			!errors.Is(pd.Err, errNotJudged) {
			out = append(out, pd.Policy)
		}
	}
	return out
}

// heldByUnreadable reports whether d waits only because of a deny this vigil
// cannot read (no deny applied, so Decide held it for the root quorum).
func heldByUnreadable(d Decision) bool {
	return d.Outcome == api.OutcomeRequiresConsensus && len(unreadableDenies(d)) > 0
}

// denyLabels names deny policies for an explanation: "deny policy 'X', deny
// policy 'Y'".
func denyLabels(ps []Policy) string {
	var ls []string
	for _, p := range ps {
		ls = append(ls, "deny policy "+label(p))
	}
	return strings.Join(ls, ", ")
}

// whyHeldByUnreadable is the why line of a decision heldByUnreadable: no
// allow policy's approvals can complete it, only the root quorum's.
func whyHeldByUnreadable(d Decision) string {
	return "waiting: " + denyLabels(unreadableDenies(d)) + " cannot be read by this vigil, so only the root quorum can complete it; " +
		quorumSoFar(d)
}
