package policy

import (
	"strings"

	"github.com/vigil-console/vigil/api"
)

// AwaitsConsensus reports whether an EFFECT_ALLOW policy with a consensus
// expression applies to in (its time and condition hold; the consensus is not
// run, since it reads approvals not cast yet): that consensus is what asks
// non-root members for their approval, so the service offers them the vote. Like Decide, the work is bounded by DecideBudget; exhausted is
// true when it ran out before an answer, and the caller must then choose the
// side that loses nothing (offering a vote that cannot change the outcome
// costs nothing; refusing one the policies ask for would hold the activity).
func AwaitsConsensus(policies []Policy, in Input) (awaits, exhausted bool) {
	return awaitsConsensus(policies, in, &meter{budget: DecideBudget})
}

// awaitsConsensus is AwaitsConsensus charging its work to m.
func awaitsConsensus(policies []Policy, in Input, m *meter) (awaits, exhausted bool) {
	var act *activation
	for _, p := range policies {
		if p.Effect != api.EffectAllow || p.Compiled == nil || strings.TrimSpace(p.Compiled.Consensus()) == "" {
			continue
		}
		if act == nil {
			var err error
			if act, err = in.activation(); err != nil {
				return false, false // no condition can hold on an input that cannot be read
			}
		}
		var r Result
		var err error
		if m.judging(act, func() error { r, err = p.Compiled.applies(act); return err }) {
			return false, true
		}
		if err == nil && r.Condition {
			return true, false
		}
	}
	return false, false
}
