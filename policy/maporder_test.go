package policy

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// TestMapQuantifierCostsTheSameEveryRun: a quantifier over a map stops at its
// first answer, so the work it is charged depends on the order it visits the
// keys in. That order is fixed, for a map written in the expression and for a
// map of the activity, so the same decision costs the same every time (and a
// decision's budget cuts it in the same place: DecideBudget).
func TestMapQuantifierCostsTheSameEveryRun(t *testing.T) {
	var entries []string
	params := map[string]any{}
	for i := range 40 {
		entries = append(entries, fmt.Sprintf("'k%d': %d", i, i))
		params[fmt.Sprint("k", i)] = i
	}
	literal := "{" + strings.Join(entries, ", ") + "}"
	in := Input{Activity: ActivityFor(api.TypeCreateUserTag, params)}
	for _, condition := range []string{
		literal + ".exists(k, k == 'k7')",
		literal + ".all(k, k != 'k7')",
		"activity.params.exists(k, k == 'k7')",
		"activity.params.exists_one(k, k == 'k7')",
	} {
		p := mustPolicy(t, "p", api.EffectAllow, condition, "")
		seen := map[uint64]bool{}
		for range 50 {
			d := decide([]Policy{p}, in, quorum, false, &meter{budget: math.MaxUint64})
			if d.Outcome == api.OutcomeError {
				t.Fatalf("%s: %s", condition, d.Reason)
			}
			seen[d.Work] = true
		}
		if len(seen) != 1 {
			t.Errorf("%s: the same decision cost %d different amounts of work over 50 runs", condition, len(seen))
		}
	}
}

// TestOrderedMapsBehaveAsMaps: the ordered maps answer every map operation as
// CEL's own do (equality, membership, indexing, size, presence, quantifiers).
func TestOrderedMapsBehaveAsMaps(t *testing.T) {
	in := Input{Activity: ActivityFor(api.TypeCreateUserTag, map[string]any{"userTagName": "ops", "userIds": []any{"u-1"}})}
	for _, condition := range []string{
		"{'a': 1, 'b': 2} == {'b': 2, 'a': 1}",
		"{'a': 1} != {'a': 2}",
		"'a' in {'a': 1} && !('c' in {'a': 1})",
		"{'a': 1, 'b': 2}['b'] == 2",
		"size({'a': 1, 'b': 2}) == 2",
		"has({'a': 1}.a) && !has({'a': 1}.c)",
		"{1: 'x', 2: 'y'}.all(k, k > 0) && {true: 1}.exists(k, k)",
		"[{'a': 1}].exists(x, x == {'a': 1})",
		"activity.params.userTagName == 'ops' && 'userIds' in activity.params",
		"activity.params.exists_one(k, k == 'userIds')",
	} {
		p := mustPolicy(t, "p", api.EffectAllow, condition, "")
		if d := Decide([]Policy{p}, in, quorum, false); d.Outcome != api.OutcomeAllow {
			t.Errorf("%s: %s (%s), want ALLOW", condition, d.Outcome, d.Reason)
		}
	}
}
