package policy

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"cel.dev/cel-go/common/types"

	"github.com/vigil-console/vigil/api"
)

// bigMapLiteral is a map literal {0:0, 1:0, …} of n int keys; first, when
// not empty, is the first entry's value instead of 0.
func bigMapLiteral(n int, first string) string {
	var b strings.Builder
	b.WriteString("{")
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		v := "0"
		if i == 0 && first != "" {
			v = first
		}
		fmt.Fprintf(&b, "%d:%s", i, v)
	}
	b.WriteString("}")
	return b.String()
}

// bigListLiteral is a list literal [0, 0, …] of n elements.
func bigListLiteral(n int) string {
	return "[" + strings.TrimSuffix(strings.Repeat("0,", n), ",") + "]"
}

// loopsOver is a condition that reads collection inside two nested loops
// of 69 elements: 4,761 reads. (It started a quantifier over collection,
// `exists(c, true)`, which stopped at the first element; loops no longer
// stop early, as the real service does not short-circuit, so that would
// now measure 1,500 iterations per read instead of the read.)
func loopsOver(collection string) string {
	l := bigListLiteral(69)
	return fmt.Sprintf("!%s.all(a, %s.all(b, %s.count() > 0))", l, l, collection)
}

// workOf is the work an unmetered decision of policies with condition
// charges.
func workOf(t *testing.T, condition string, policies int) Decision {
	t.Helper()
	c, err := Compile(condition, "")
	if err != nil {
		t.Fatalf("compile (%d bytes): %v", len(condition), err)
	}
	var ps []Policy
	for i := range policies {
		ps = append(ps, Policy{ID: fmt.Sprint("deny-", i), Effect: api.EffectDeny, Compiled: c})
	}
	return decide(ps, input(alice), quorum, false, &meter{budget: math.MaxUint64})
}

// TestConstantMapLiteralCostsWhatAListDoes: a map literal of constants is
// built and sorted once, when the policy is compiled, as CEL folds a list
// literal of constants: starting a quantifier over it does no more work than
// over a list of the same size, and is charged no more. (It used to be
// rebuilt and its keys sorted at every start, charged a flat 40 units: six
// such policies within the decision's budget took 26 s.)
func TestConstantMapLiteralCostsWhatAListDoes(t *testing.T) {
	overMap := workOf(t, loopsOver(bigMapLiteral(1500, "")), 6)
	overList := workOf(t, loopsOver(bigListLiteral(1500)), 6)
	if overMap.Outcome != api.OutcomeDenyImplicit || overList.Outcome != api.OutcomeDenyImplicit {
		t.Fatalf("outcomes %s and %s, want DENY_IMPLICIT (the conditions are false)", overMap.Outcome, overList.Outcome)
	}
	if overMap.Work > overList.Work {
		t.Errorf("the loops over a constant map charge %d units, over a constant list of the same size %d: the map is rebuilt at each start", overMap.Work, overList.Work)
	}
	// The same six policies, within the decision's budget, are all judged.
	if d := Decide(workOfPolicies(t, loopsOver(bigMapLiteral(1500, "")), 6), input(alice), quorum, false); d.Exhausted || d.Work != overMap.Work {
		t.Errorf("Decide: exhausted %v, work %d; want every policy judged for %d units", d.Exhausted, d.Work, overMap.Work)
	}
}

func workOfPolicies(t *testing.T, condition string, n int) []Policy {
	t.Helper()
	return slicesOf(mustPolicy(t, "deny", api.EffectDeny, condition, ""), n)
}

func slicesOf(p Policy, n int) []Policy {
	ps := make([]Policy, n)
	for i := range ps {
		ps[i] = p
		ps[i].ID = fmt.Sprint(p.ID, "-", i)
	}
	return ps
}

// TestBuiltMapLiteralIsChargedItsSize: a map literal with a value read from
// the activity is built at each evaluation; each build is charged by its
// entries and their sort, so a loop that rebuilds a large one hits the cost
// limit and the decision's budget instead of running for seconds.
func TestBuiltMapLiteralIsChargedItsSize(t *testing.T) {
	built := func(n int) string { return bigMapLiteral(n, "size(activity.type)") }
	threeStarts := func(m string) string { return fmt.Sprintf("![0, 0, 0].all(a, %s.exists(c, true))", m) }
	small, large := workOf(t, threeStarts(built(750)), 1), workOf(t, threeStarts(built(1500)), 1)
	if small.Outcome != api.OutcomeDenyImplicit || large.Outcome != api.OutcomeDenyImplicit {
		t.Fatalf("outcomes %s (%s) and %s (%s), want DENY_IMPLICIT", small.Outcome, small.Reason, large.Outcome, large.Reason)
	}
	if grown := large.Work - small.Work; grown < 3*750 {
		t.Errorf("750 more entries built 3 times charge %d more units, want at least one per entry built (%d)", grown, 3*750)
	}

	// The reviewer's shape, rebuilt at each of its 4,761 starts: one policy
	// is past the cost limit (an error, which never denies), and six are
	// past the decision's budget, which stops them.
	one := workOf(t, loopsOver(built(1500)), 1)
	if one.Policies[0].Outcome != api.OutcomeError || !strings.Contains(one.Reason, "cost limit") {
		t.Errorf("one such deny: %s (%s), want OUTCOME_ERROR for the cost limit", one.Policies[0].Outcome, one.Reason)
	}
	d := Decide(workOfPolicies(t, loopsOver(built(1500)), 6), input(alice), quorum, false)
	if !d.Exhausted || d.Outcome != api.OutcomeRequiresConsensus {
		t.Errorf("six such denies: %s (exhausted %v), want undecided: the budget ran out", d.Outcome, d.Exhausted)
	}
	if limit := uint64(DecideBudget + CostLimit + 2*judgeCost); d.Work > limit {
		t.Errorf("six such denies charged %d units, more than the budget and one expression (%d)", d.Work, limit)
	}
}

// TestMapKeysAreSortedOnce: the keys of one map value are sorted at its
// first iteration and reused by every later one, whoever holds a copy.
func TestMapKeysAreSortedOnce(t *testing.T) {
	m := ordered(types.NewStringInterfaceMap(types.DefaultTypeAdapter, map[string]any{"b": 1, "a": 2, "c": 3})).(orderedMap)
	first := m.Iterator().(*keyIterator).keys
	copied := m
	again := copied.Iterator().(*keyIterator).keys
	if len(first) != 3 || &first[0] != &again[0] {
		t.Fatalf("a second iteration sorted the keys again (%v, then %v)", first, again)
	}
	if first[0] != types.String("a") || first[2] != types.String("c") {
		t.Fatalf("keys %v, want them sorted", first)
	}
}
