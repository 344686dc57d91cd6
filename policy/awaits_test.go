package policy

import (
	"fmt"
	"math"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// costlyNonMatching are n allow policies with a consensus whose conditions
// cost tens of thousands of units each (every loop runs to its end) and never
// hold.
func costlyNonMatching(t testing.TB, n int) []Policy {
	t.Helper()
	condition := fmt.Sprintf("%s.all(a, %s.all(b, %s.all(c, a + b + c > 0))) && %s.size() > 100", twenty, twenty, twenty, twenty)
	ps := make([]Policy, n)
	for i := range ps {
		ps[i] = mustPolicy(t, fmt.Sprint("costly-", i), api.EffectAllow, condition, "approvers.size() > 1")
	}
	return ps
}

// TestAwaitsConsensusIsBounded: who may vote is found under the same budget
// as a decision. A matching policy behind more costly conditions than the
// budget pays for is not reached, and the answer says the budget ran out
// (the service then offers the vote); within the budget the answer is the
// same as with no budget.
func TestAwaitsConsensusIsBounded(t *testing.T) {
	in := input(alice)
	matching := mustPolicy(t, "ops", api.EffectAllow, "activity.type == '"+api.TypeCreateUserTag+"'", "approvers.size() > 1")
	m := &meter{budget: math.MaxUint64}
	act, err := in.activation()
	if err != nil {
		t.Fatal(err)
	}
	one := costlyNonMatching(t, 1)[0]
	spent := act.spent
	if _, err := one.Compiled.run(act); err != nil {
		t.Fatal(err)
	}
	m.charge(act.spent - spent)
	if m.spent < 10_000 {
		t.Fatalf("a costly condition costs only %d units", m.spent)
	}
	over := int(DecideBudget/m.spent) + 2

	if awaits, exhausted := AwaitsConsensus(append([]Policy{matching}, costlyNonMatching(t, over)...), in); !awaits || exhausted {
		t.Errorf("a matching policy first: awaits %v, exhausted %v; want true, false", awaits, exhausted)
	}
	if awaits, exhausted := AwaitsConsensus(append(costlyNonMatching(t, over), matching), in); awaits || !exhausted {
		t.Errorf("a matching policy behind %d costly ones: awaits %v, exhausted %v; want the budget to run out", over, awaits, exhausted)
	}
	if awaits, exhausted := AwaitsConsensus(append(costlyNonMatching(t, 3), matching), in); !awaits || exhausted {
		t.Errorf("a matching policy behind 3 costly ones: awaits %v, exhausted %v; want true, false", awaits, exhausted)
	}
	if awaits, exhausted := AwaitsConsensus(costlyNonMatching(t, 3), in); awaits || exhausted {
		t.Errorf("no matching policy: awaits %v, exhausted %v; want false, false", awaits, exhausted)
	}
	// A deny, or an allow without a consensus, asks nobody for a vote.
	deny := mustPolicy(t, "deny", api.EffectDeny, "true", "approvers.size() > 1")
	plain := mustPolicy(t, "plain", api.EffectAllow, "true", "")
	if awaits, _ := AwaitsConsensus([]Policy{deny, plain}, in); awaits {
		t.Error("a deny and an allow without consensus: awaits true")
	}
}

// TestAwaitsConsensusRunsNoConsensus: whether a policy asks for votes depends
// on its time and condition only. Its consensus reads approvals not cast yet:
// one that cannot be evaluated without approvers (it indexes the first, or
// divides by their number) must not make the policy look as if it asked
// nobody, or the members it asks for would be refused the vote.
func TestAwaitsConsensusRunsNoConsensus(t *testing.T) {
	in := Input{Activity: ActivityFor(api.TypeCreateUserTag, map[string]any{"userTagName": "x"})}
	for _, consensus := range []string{
		"approvers[0].tags.exists(t, t == 'ops')",
		"approvers.count() / approvers.size() >= 1",
	} {
		p := mustPolicy(t, "p", api.EffectAllow, "activity.type == '"+api.TypeCreateUserTag+"'", consensus)
		if _, _, err := p.Compiled.Evaluate(in); err == nil {
			t.Fatalf("consensus %q evaluates without approvers; the test needs one that fails", consensus)
		}
		if awaits, exhausted := AwaitsConsensus([]Policy{p}, in); !awaits || exhausted {
			t.Errorf("consensus %q, the condition holding: awaits %v, exhausted %v; want true, false", consensus, awaits, exhausted)
		}
	}
}
