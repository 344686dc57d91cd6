package policy

import (
	"errors"
	"fmt"

	"github.com/vigil-console/vigil/api"
)

// overLimitDenies are the deny policies of d stopped at the cost limit:
// Decide does not ignore them (the submitter chooses the activity's size),
// so no allow completes the activity while no other deny applies.
func overLimitDenies(d Decision) []Policy {
	var out []Policy
	for _, pd := range d.Details {
		if pd.Outcome == api.OutcomeError && pd.Policy.Effect == api.EffectDeny && errors.Is(pd.Err, errCostLimit) {
			out = append(out, pd.Policy)
		}
	}
	return out
}

// heldByOverLimit reports whether d waits, undecided, because a deny ran out
// of its cost limit (and the work budget did not run out first: that reason
// is the decision's then).
func heldByOverLimit(d Decision) bool {
	return d.Outcome == api.OutcomeRequiresConsensus && !d.Exhausted && len(overLimitDenies(d)) > 0
}

// whyHeldByOverLimit is the why line of a decision heldByOverLimit.
func whyHeldByOverLimit(d Decision) string {
	return fmt.Sprintf("waiting: undecided, because %s ran out of its evaluation cost limit (%d cost units) on this activity "+
		"and could still deny it, so only the root quorum can complete it; %s", denyLabels(overLimitDenies(d)), CostLimit, quorumSoFar(d))
}
