package policy

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// costlyWaiting are n allow policies whose consensus costs tens of
// thousands of units and is met by no set of candidates: an explanation
// would re-run each for every candidate and every set of two or three.
func costlyWaiting(t *testing.T, n int) []Policy {
	t.Helper()
	l := bigListLiteral(120)
	cons := fmt.Sprintf("%s.all(a, %s.all(b, true)) && approvers.count() > 50", l, l)
	var ps []Policy
	for i := range n {
		ps = append(ps, mustPolicy(t, fmt.Sprint("allow-", i), api.EffectAllow, "", cons))
	}
	return ps
}

func candidatesNamed(n int) []Approver {
	var out []Approver
	for i := range n {
		out = append(out, Approver{ID: fmt.Sprint("u-", i), Name: fmt.Sprint("user", i)})
	}
	return out
}

// TestExplainWithIsBudgeted: explaining a decision that stayed within its
// budget re-runs the waiting policies' consensus for candidates; that work
// stops at ExplainBudget, and the explanation says it was cut short instead
// of naming anyone. (It used to have no bound: 4.5 s for a decision of 11 ms,
// in the console's render.)
func TestExplainWithIsBudgeted(t *testing.T) {
	ps, in := costlyWaiting(t, 4), input(alice)
	d := Decide(ps, in, quorum, false)
	if d.Exhausted || d.Outcome != api.OutcomeRequiresConsensus {
		t.Fatalf("Decide = %s (exhausted %v), want waiting within the budget", d.Outcome, d.Exhausted)
	}
	e := ExplainWith(d, in, candidatesNamed(20))
	if limit := uint64(ExplainBudget + CostLimit + judgeCost); e.Work < ExplainBudget || e.Work > limit {
		t.Errorf("the explanation charged %d units, want the budget %d reached and at most %d", e.Work, ExplainBudget, limit)
	}
	if !e.CutShort || !strings.Contains(e.Why, "too costly to work out from whom") {
		t.Errorf("explanation %q (cut short %v) does not say it was cut short", e.Why, e.CutShort)
	}
	for _, p := range ps {
		if !strings.Contains(e.Why, "policy "+label(p)+" needs more approvals") {
			t.Errorf("explanation %q does not say %s needs more approvals", e.Why, p.ID)
		}
	}
}

// TestExplainWithCutShortSaysLessNeverFalse: wherever the budget cuts an
// explanation, each waiting policy's line is the one a full explanation
// gives, or says it was too costly to work out: never a partial search's
// answer (one approver named where two could give it, or a set that is not
// the smallest).
func TestExplainWithCutShortSaysLessNeverFalse(t *testing.T) {
	ops := named(mustPolicy(t, "p-ops", api.EffectAllow, "", "approvers.filter(u, u.tags.contains('ops')).count() >= 2"), "Ops approvals")
	four := named(mustPolicy(t, "p-four", api.EffectAllow, "", "approvers.count() >= 4"), "Four eyes")
	opsOnly := named(mustPolicy(t, "p-ops-only", api.EffectAllow, "", "approvers.count() >= 3 && approvers.all(u, u.tags.contains('ops'))"), "Ops only")
	ps := []Policy{ops, four, opsOnly}
	in := input(bob)
	candidates := []Approver{carol, {ID: "u-dave", Name: "dave", Tags: []string{"ops"}}, {ID: "u-erin", Name: "erin"}, {ID: "u-frank", Name: "frank", Tags: []string{"ops"}}}
	d := Decide(ps, in, quorum, false)
	full := explainWith(d, in, candidates, &meter{budget: math.MaxUint64})
	if full.CutShort || strings.Contains(full.Why, "too costly") {
		t.Fatalf("unbounded explanation %q is cut short", full.Why)
	}
	if got := ExplainWith(d, in, candidates); got.Why != full.Why {
		t.Fatalf("within the budget: %q, want %q", got.Why, full.Why)
	}
	fullParts := strings.Split(full.Why, "; or ")
	for budget := uint64(0); budget <= full.Work; budget += 7 {
		e := explainWith(d, in, candidates, &meter{budget: budget})
		parts := strings.Split(e.Why, "; or ")
		if len(parts) != len(fullParts) {
			t.Fatalf("budget %d: %q has %d parts, want %d", budget, e.Why, len(parts), len(fullParts))
		}
		for i, p := range parts {
			if p != fullParts[i] && !strings.HasSuffix(p, tooCostly) {
				t.Fatalf("budget %d: %q, where the full explanation says %q", budget, p, fullParts[i])
			}
		}
	}
}
