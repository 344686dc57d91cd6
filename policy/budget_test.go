package policy

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// costlyDenies are n deny policies whose consensus costs tens of thousands
// of cost units and is never met: each is judged DENY_IMPLICIT.
func costlyDenies(t testing.TB, n int) []Policy {
	t.Helper()
	ps := costlyPolicies(t, n)
	for i := range ps {
		ps[i].ID, ps[i].Effect = fmt.Sprint("costly-deny-", i), api.EffectDeny
	}
	return ps
}

// overBudget is how many of ps's first policy make a decision outrun
// DecideBudget, measured with an unmetered decision of that one policy.
func overBudget(t *testing.T, ps []Policy, in Input) int {
	t.Helper()
	one := decide(ps[:1], in, quorum, false, &meter{budget: math.MaxUint64})
	if one.Work == 0 {
		t.Fatal("measuring a policy's work gave 0")
	}
	return int(DecideBudget/one.Work) + 2
}

// unmetered is the decision with every policy judged, however costly.
func unmetered(ps []Policy, in Input) Decision {
	return decide(ps, in, quorum, false, &meter{budget: math.MaxUint64})
}

// TestDecideOverBudgetWaits: an allow whose consensus is met, among deny
// policies too costly to judge within the budget, does not allow: a deny not
// judged could still win. The decision is undecided (the activity waits),
// says so, records the policies it did not judge, and is the same every time
// (for maps too: TestMapQuantifierCostsTheSameEveryRun).
func TestDecideOverBudgetWaits(t *testing.T) {
	in := input(alice)
	allowOps := mustPolicy(t, "allow-ops", api.EffectAllow, "", "approvers.any(u, u.tags.contains('ops'))")
	ps := append([]Policy{allowOps}, costlyDenies(t, overBudget(t, costlyDenies(t, 1), in))...)
	if full := unmetered(ps, in); full.Outcome != api.OutcomeAllow {
		t.Fatalf("with every policy judged: %s, want ALLOW (the test needs an allow the budget hides)", full.Outcome)
	}

	d := Decide(ps, in, quorum, false)
	if !d.Exhausted || d.Outcome != api.OutcomeRequiresConsensus {
		t.Fatalf("Decide = %s (exhausted %v), want REQUIRES_CONSENSUS because the budget ran out", d.Outcome, d.Exhausted)
	}
	if limit := uint64(DecideBudget + CostLimit + 2*judgeCost); d.Work < DecideBudget || d.Work > limit {
		t.Fatalf("the decision did %d units of work, want between the budget %d and %d", d.Work, DecideBudget, limit)
	}
	if len(d.Policies) != len(ps) {
		t.Fatalf("the record has %d outcomes for %d policies", len(d.Policies), len(ps))
	}
	if got := outcomes(d)["allow-ops"]; got != api.OutcomeError {
		t.Fatalf("the allow, judged after the denies it could not outrank, is %s; want OUTCOME_ERROR (not evaluated)", got)
	}
	if !strings.Contains(d.Reason, "work budget") || !strings.Contains(d.Reason, "allow-ops") {
		t.Fatalf("reason %q does not say the budget ran out and which policies were not evaluated", d.Reason)
	}
	e := Explain(d)
	if !strings.HasPrefix(e.Why, "waiting: undecided") || !strings.Contains(e.Why, "work budget") {
		t.Fatalf("explanation %q does not say the decision is undecided for lack of budget", e.Why)
	}
	if w := ExplainWith(d, in, []Approver{bob}).Why; w != e.Why {
		t.Fatalf("ExplainWith says %q, want the undecided explanation %q", w, e.Why)
	}
	if i := slices.IndexFunc(e.Policies, func(l PolicyLine) bool { return l.ID == "allow-ops" }); e.Policies[i].Shown != NotEvaluated {
		t.Fatalf("the allow is shown %q, want %q", e.Policies[i].Shown, NotEvaluated)
	}
	again := Decide(ps, in, quorum, false)
	if again.Outcome != d.Outcome || !slices.Equal(again.Policies, d.Policies) || again.Work != d.Work {
		t.Fatalf("the same input decided twice differs: %+v then %+v", d.Policies, again.Policies)
	}
	// The root quorum needs no policy judged: it still completes it.
	if r := Decide(ps, input(root1, root3), quorum, false); r.Outcome != api.OutcomeAllow || r.Exhausted {
		t.Fatalf("root quorum approval over budget = %s (exhausted %v), want ALLOW", r.Outcome, r.Exhausted)
	}
}

// TestDecideOverBudgetDenyIsDecisive: a deny found before the budget runs
// out decides, as it would with every policy judged: deny always wins.
func TestDecideOverBudgetDenyIsDecisive(t *testing.T) {
	in := input(alice)
	allowOps := mustPolicy(t, "allow-ops", api.EffectAllow, "", "approvers.any(u, u.tags.contains('ops'))")
	denyAlice := mustPolicy(t, "deny-alice", api.EffectDeny, "", "approvers.any(u, u.id == 'u-alice')")
	ps := append([]Policy{allowOps, denyAlice}, costlyDenies(t, overBudget(t, costlyDenies(t, 1), in))...)
	if full := unmetered(ps, in); full.Outcome != api.OutcomeDenyExplicit {
		t.Fatalf("with every policy judged: %s, want DENY_EXPLICIT", full.Outcome)
	}
	d := Decide(ps, in, quorum, false)
	if !d.Exhausted || d.Outcome != api.OutcomeDenyExplicit {
		t.Fatalf("Decide = %s (exhausted %v), want DENY_EXPLICIT though the budget ran out", d.Outcome, d.Exhausted)
	}
	if got := Explain(d).Why; !strings.Contains(got, "deny-alice") {
		t.Fatalf("explanation %q does not name the deny", got)
	}
}

// TestDecideOverBudgetAllowAfterEveryDeny: once every deny is judged, an
// allow found decides even if costly allows after it are not judged.
func TestDecideOverBudgetAllowAfterEveryDeny(t *testing.T) {
	in := input(alice)
	allowOps := mustPolicy(t, "allow-ops", api.EffectAllow, "", "approvers.any(u, u.tags.contains('ops'))")
	denyCarol := mustPolicy(t, "deny-carol", api.EffectDeny, "", "approvers.any(u, u.id == 'u-carol')")
	costly := costlyPolicies(t, 1)
	ps := append([]Policy{allowOps, denyCarol}, costlyPolicies(t, overBudget(t, costly, in))...)
	if full := unmetered(ps, in); full.Outcome != api.OutcomeAllow {
		t.Fatalf("with every policy judged: %s, want ALLOW", full.Outcome)
	}
	d := Decide(ps, in, quorum, false)
	if !d.Exhausted || d.Outcome != api.OutcomeAllow {
		t.Fatalf("Decide = %s (exhausted %v), want ALLOW: no deny applies and allow-ops is met", d.Outcome, d.Exhausted)
	}
}

// TestReachableWithNobodyLeftOverBudget: the last member's rejection of an
// activity whose decision runs out of budget settles it: nobody can add an
// approval, and only an approval runs an activity.
func TestReachableWithNobodyLeftOverBudget(t *testing.T) {
	in := input(alice)
	allowOps := mustPolicy(t, "allow-ops", api.EffectAllow, "", "approvers.any(u, u.tags.contains('ops'))")
	ps := append([]Policy{allowOps}, costlyDenies(t, overBudget(t, costlyDenies(t, 1), in))...)
	if d := Decide(ps, in, quorum, false); !d.Exhausted || d.Outcome == api.OutcomeAllow {
		t.Fatalf("Decide = %s (exhausted %v), want undecided", d.Outcome, d.Exhausted)
	}
	got := Reachable(ps, in, quorum, false, nil)
	if got.Reachable || got.Exhausted {
		t.Fatalf("Reachable = %+v, want unreachable: nobody is left and the decision never allows", got)
	}
}
