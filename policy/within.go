package policy

import "fmt"

// The engine's work budgets (DecideBudget, ReachBudget) are sized for a real
// service; the functions below take another, so that a service opened with a
// lower one (server.Config.PolicyWork, for tests) reaches it with a few
// costly policies instead of hundreds. A budget of 0 means the default.

// DecideWithin is Decide with its work bounded by budget cost units instead
// of DecideBudget.
func DecideWithin(policies []Policy, in Input, quorum Quorum, rootOnly bool, budget uint64) Decision {
	return decide(policies, in, quorum, rootOnly, &meter{budget: orDefault(budget, DecideBudget)})
}

// ReachableWithin is Reachable with the search bounded by budget cost units
// instead of ReachBudget.
func ReachableWithin(policies []Policy, in Input, quorum Quorum, rootOnly bool, potentialApprovers []Approver, budget uint64) Reach {
	return reachable(policies, in, quorum, rootOnly, potentialApprovers, orDefault(budget, ReachBudget))
}

// AwaitsConsensusWithin is AwaitsConsensus with its work bounded by budget
// cost units instead of DecideBudget.
func AwaitsConsensusWithin(policies []Policy, in Input, budget uint64) (awaits, exhausted bool) {
	return awaitsConsensus(policies, in, &meter{budget: orDefault(budget, DecideBudget)})
}

func orDefault(budget, def uint64) uint64 {
	if budget == 0 {
		return def
	}
	return budget
}

// notJudged is errNotJudged as a decision records it, stating the budget
// it ran within, so that a policy's error and the decision's reason name
// the same one.
type notJudged struct{ budget uint64 }

func (e notJudged) Error() string {
	return fmt.Sprintf("not evaluated: the decision ran out of its work budget (%d cost units) first", e.budget)
}

func (e notJudged) Is(target error) bool { return target == errNotJudged }

// limit is m's budget, 0 when unmetered.
func (m *meter) limit() uint64 {
	if m == nil {
		return 0
	}
	return m.budget
}
