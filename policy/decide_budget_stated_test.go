package policy

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// With a budget other than DecideBudget (server.Config.PolicyWork), the
// decision's reason, each policy not judged (recorded as OUTCOME_ERROR with
// this error) and the explanation all state the budget the decision ran
// within: one evaluation, one budget (audit 142).
func TestDecideWithinStatesOneBudget(t *testing.T) {
	in := input(alice)
	ps := costlyDenies(t, 4)
	one := decide(ps[:1], in, quorum, false, &meter{budget: math.MaxUint64})
	budget := one.Work * 3 / 2
	allowOps := mustPolicy(t, "allow-ops", api.EffectAllow, "", "approvers.any(u, u.tags.contains('ops'))")
	d := DecideWithin(append([]Policy{allowOps}, ps...), in, quorum, false, budget)
	if !d.Exhausted || d.Outcome != api.OutcomeRequiresConsensus {
		t.Fatalf("setup: DecideWithin = %s (exhausted %v), want undecided", d.Outcome, d.Exhausted)
	}
	want := fmt.Sprintf("(%d cost units)", budget)
	if !strings.Contains(d.Reason, want) {
		t.Fatalf("reason %q does not state the budget %d", d.Reason, budget)
	}
	unjudged := 0
	for _, p := range d.Details {
		if p.Err == nil {
			continue
		}
		unjudged++
		if !strings.Contains(p.Err.Error(), want) {
			t.Errorf("policy %s not judged: %q, while the decision's reason says %s", p.Policy.ID, p.Err, want)
		}
	}
	if unjudged == 0 {
		t.Fatal("setup: every policy was judged")
	}
	if why := Explain(d).Why; !strings.Contains(why, want) {
		t.Errorf("the explanation %q does not state the budget the decision ran within, %s", why, want)
	}
}
