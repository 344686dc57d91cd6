package screens

import (
	"testing"

	"github.com/vigil-console/vigil/api"
)

// A refresh takes a sum from the load before only for the same bytes: an
// intent changed since is hashed afresh, and every sum is the intentSum of
// the intent it stands beside.
func TestIntentSumsReusedOnlyForSameBytes(t *testing.T) {
	first := []api.Activity{
		{ID: "a", Fingerprint: "f1", Intent: rawIntent(`{"v":1}`)},
		{ID: "b", Fingerprint: "f2", Intent: rawIntent(`{"v":2}`)},
	}
	_, prev := intentSums(first, nil)
	again := []api.Activity{first[0], first[1]}
	again[1].Intent = rawIntent(`{"v":3}`) // changed under the same id and fingerprint
	sums, next := intentSums(again, prev)
	for i, act := range again {
		if sums[i] != intentSum(act.Intent) {
			t.Errorf("%s: the sum given is not that of its intent %s", act.ID, act.Intent.Other["someOtherIntentV9"])
		}
	}
	if len(next) != len(again) {
		t.Errorf("the sums kept for the next load hold %d intents, not this load's %d", len(next), len(again))
	}
}
