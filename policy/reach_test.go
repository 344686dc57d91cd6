package policy

import (
	"fmt"
	"math"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// costlyPolicies are n allow policies whose consensus costs tens of
// thousands of cost units and is never met.
func costlyPolicies(t testing.TB, n int) []Policy {
	t.Helper()
	consensus := fmt.Sprintf("%s.all(a, %s.all(b, %s.all(c, a + b + c > 0))) && approvers.size() > 100", twenty, twenty, twenty)
	ps := make([]Policy, n)
	for i := range ps {
		ps[i] = mustPolicy(t, fmt.Sprint("costly-", i), api.EffectAllow, "", consensus)
	}
	return ps
}

// potentialVoters are n users who have not voted.
func potentialVoters(n int) []Approver {
	out := make([]Approver, n)
	for i := range out {
		out[i] = Approver{ID: fmt.Sprint("u-voter-", i), Tags: []string{}}
	}
	return out
}

// TestReachableStopsAtItsBudget: an organization of costly policies that no
// set of approvers meets would have the search run about a hundred costly
// decisions; it stops at ReachBudget and answers "reachable", flagged as
// exhausted, rather than rejecting on a guess.
func TestReachableStopsAtItsBudget(t *testing.T) {
	ps := costlyPolicies(t, 10)
	in := input(alice)
	one := &meter{budget: math.MaxUint64}
	if d := decide(ps, in, quorum, false, one); d.Exhausted {
		t.Fatal("an unmetered decision gave up")
	}
	const unbounded = 1 + 8 + 1 + 8 + 28 + 56 // decisions the search runs for 8 voters
	if unbounded*one.spent <= ReachBudget {
		t.Fatalf("the policies cost %d units a decision: the search would fit the budget anyway", one.spent)
	}
	got := Reachable(ps, in, quorum, false, potentialVoters(8))
	if !got.Reachable || !got.Exhausted {
		t.Fatalf("Reachable = %+v, want reachable because the budget ran out", got)
	}
	if limit := uint64(ReachBudget + 3*CostLimit + judgeCost); got.Work < ReachBudget || got.Work > limit {
		t.Fatalf("the search did %d units of work, want between the budget %d and %d", got.Work, ReachBudget, limit)
	}
}

// TestReachableWithinBudgetIsExact: an ordinary organization's search is
// never cut short, and an unreachable consensus is still answered false.
func TestReachableWithinBudgetIsExact(t *testing.T) {
	twoOps := mustPolicy(t, "two-ops", api.EffectAllow, "", "approvers.filter(u, u.tags.contains('ops')).count() >= 2")
	got := Reachable([]Policy{twoOps}, input(alice), quorum, false, potentialVoters(8))
	if got.Reachable || got.Exhausted {
		t.Fatalf("Reachable = %+v, want unreachable, not exhausted", got)
	}
	if got.Work == 0 || got.Work > ReachBudget/100 {
		t.Fatalf("an ordinary search did %d units of work; the budget is %d", got.Work, ReachBudget)
	}
}

// TestReachableWithNobodyLeftIsExact: when nobody is left to vote the
// answer is "unreachable", whatever the budget: no approval can come.
func TestReachableWithNobodyLeftIsExact(t *testing.T) {
	ps := costlyPolicies(t, 10)
	got := reachable(ps, input(alice), quorum, false, nil, 1)
	if got.Reachable || got.Exhausted {
		t.Fatalf("Reachable = %+v, want unreachable: nobody is left to approve", got)
	}
}
