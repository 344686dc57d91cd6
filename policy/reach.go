package policy

import (
	"errors"
	"math"
	"slices"

	"github.com/vigil-console/vigil/api"
)

// ReachBudget bounds the work of one Reachable search, in CEL cost units
// (the units of CostLimit): every policy judged is charged the cost of its
// expressions plus judgeCost. The server runs the search in its single
// writer's transaction, so an organization of many costly policies must not
// hold every write of the service for seconds: 1,000,000 units is about
// 80 ms of the costliest expressions (docs/performance.md), and hundreds
// of times what an ordinary organization's search takes.
const ReachBudget = 1_000_000

// judgeCost is what judging one policy costs besides its expressions
// (about a microsecond, as a cost unit is about 50 ns): it makes many cheap
// policies count too.
const judgeCost = 20

// meter counts the work of a search against its budget; a nil meter counts
// nothing.
type meter struct {
	budget, spent uint64
}

func (m *meter) exhausted() bool { return m != nil && m.spent >= m.budget }

// used is the work charged so far.
func (m *meter) used() uint64 {
	if m == nil {
		return 0
	}
	return m.spent
}

func (m *meter) charge(units uint64) {
	if m != nil {
		m.spent += units
	}
}

// judging runs one policy's evaluation over act within what is left of m's
// budget: its expressions stop (errNotJudged) once that is spent, and the
// work done, plus judgeCost, is charged. stopped is true when the budget was
// spent before or during it: the evaluation's answer does not count.
func (m *meter) judging(act *activation, evaluate func() error) (stopped bool) {
	if m.exhausted() {
		return true
	}
	spent := act.spent
	if m != nil && m.budget-m.spent < math.MaxUint64-spent {
		act.stopAt = spent + m.budget - m.spent
	}
	err := evaluate()
	act.stopAt = 0
	m.charge(judgeCost + act.spent - spent)
	return errors.Is(err, errNotJudged)
}

// Reach is Reachable's answer.
type Reach struct {
	// Reachable is true when some set of approvers that Decide allows was
	// found, and also when the search ran out of budget first (Exhausted):
	// failing safe, the activity keeps waiting for votes (more rejections
	// or its expiry end it) rather than being rejected on a guess.
	Reachable bool
	// Exhausted is true when the search stopped at ReachBudget before it
	// could answer.
	Exhausted bool
	// Work is the work charged, in cost units: at most ReachBudget plus
	// what one policy's judgment costs.
	Work uint64
}

// Reachable reports whether the activity could still be allowed if some of
// potentialApprovers (the users who have not voted yet and may vote) approved
// as well. The server uses it to decide that a rejection made consensus
// unreachable. With nobody left who may vote it answers false, even when the
// approvals counted already allow (see reachable): only an approval runs an
// activity, and none can come.
//
// It tries the approvers as they are; then adds the potential approvers one
// by one in order, skipping any whose approval would trigger an explicit
// deny; then adds all of them; and only then tries one, two or three more of
// the first maxReachSearched potential approvers (a consensus such as
// `approvers.all(u, u.tags.contains('ops'))` gets harder with the wrong
// approver, so a set that adds everyone can fail where a smaller one does
// not). It only answers true for a set of approvers that Decide actually
// allows, so it is exact for consensus that only gets easier with more
// approvers and for any that a few more approvals would meet, and may answer
// false for contrived ones that only a larger particular subset meets.
//
// The whole search is bounded by ReachBudget; see Reach.
func Reachable(policies []Policy, in Input, quorum Quorum, rootOnly bool, potentialApprovers []Approver) Reach {
	return reachable(policies, in, quorum, rootOnly, potentialApprovers, ReachBudget)
}

func reachable(policies []Policy, in Input, quorum Quorum, rootOnly bool, potentialApprovers []Approver, budget uint64) Reach {
	if len(potentialApprovers) == 0 {
		// Nobody left who may vote: no approval can come, and a rejection
		// never runs anything, so the last voter's rejection settles it even
		// when the approvals counted would allow it under today's policies (a
		// policy created, or a time window opened, since the last approval).
		// A rejection is the voters' last word: nothing runs that its last
		// voter rejected.
		return Reach{}
	}
	m := &meter{budget: budget}
	exhausted := false
	allows := func(approvers []Approver) (allow, deny bool) {
		if exhausted {
			return false, false
		}
		next := in
		next.Approvers = approvers
		d := decide(policies, next, quorum, rootOnly, m)
		if d.Exhausted {
			exhausted = true
			return false, false
		}
		return d.Outcome == api.OutcomeAllow, d.Outcome == api.OutcomeDenyExplicit
	}
	found := search(in.Approvers, rootOnly, potentialApprovers, allows)
	return Reach{Reachable: found || exhausted, Exhausted: exhausted && !found, Work: m.spent}
}

// search is Reachable's procedure over allows; potentialApprovers is not
// empty (reachable answers that case).
func search(approvers []Approver, rootOnly bool, potentialApprovers []Approver, allows func([]Approver) (allow, deny bool)) bool {
	current := slices.Clone(approvers)
	if ok, _ := allows(current); ok {
		return true
	}
	if rootOnly {
		// Only root members count; policies are never consulted.
		all := append(slices.Clone(current), potentialApprovers...)
		ok, _ := allows(all)
		return ok
	}
	greedy := current
	for _, p := range potentialApprovers {
		candidate := append(slices.Clone(greedy), p)
		ok, deny := allows(candidate)
		if ok {
			return true
		}
		if !deny {
			greedy = candidate
		}
	}
	if ok, _ := allows(append(slices.Clone(current), potentialApprovers...)); ok {
		return true
	}
	// Only when adding approvers in order failed (the costlier search runs
	// in the writer's transaction): a consensus that the wrong approver
	// makes harder may still be met by a few of the others.
	return subsetAllows(potentialApprovers[:min(len(potentialApprovers), maxReachSearched)], func(extra []Approver) bool {
		ok, _ := allows(append(slices.Clone(current), extra...))
		return ok
	})
}

// maxReachSearched bounds Reachable's search of small sets: the sets of one
// to three of 8 potential approvers are 92 decisions, on a rejection only.
const maxReachSearched = 8

// subsetAllows reports whether allows holds for some set of one, two or
// three of c, smallest sets first.
func subsetAllows(c []Approver, allows func([]Approver) bool) bool {
	for i := range c {
		if allows([]Approver{c[i]}) {
			return true
		}
	}
	for i := range c {
		for j := i + 1; j < len(c); j++ {
			if allows([]Approver{c[i], c[j]}) {
				return true
			}
		}
	}
	for i := range c {
		for j := i + 1; j < len(c); j++ {
			for k := j + 1; k < len(c); k++ {
				if allows([]Approver{c[i], c[j], c[k]}) {
					return true
				}
			}
		}
	}
	return false
}
