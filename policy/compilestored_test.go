package policy

import (
	"testing"

	"github.com/vigil-console/vigil/api"
)

// Conditions an earlier vigil accepted and stored, refused from a
// submission now, are still read from the store, by the service and by the
// console's simulator alike (PoliciesOf).
func TestStoredPoliciesSkipSubmissionLint(t *testing.T) {
	for _, cond := range []string{
		"activity.params.otp_length in ['6', '8']",
		"activity.params.user_id in ['a', 2]",
		"activity.params.user_id == 2",
	} {
		if _, err := CompileSource(Source{Condition: cond}); err == nil {
			t.Errorf("%q: a submission is accepted; it should be refused", cond)
		}
		pols, errs := PoliciesOf([]api.Policy{{PolicyID: "p", Effect: api.EffectDeny, Condition: cond}})
		if len(errs) > 0 || len(pols) != 1 || pols[0].CompileErr != nil {
			t.Errorf("%q stored: %v", cond, errs)
		}
		if _, err := NewCompileCache(1 << 20).Compile(Source{Condition: cond}); err != nil {
			t.Errorf("%q stored, through the cache: %v", cond, err)
		}
	}
	// A real dialect failure still makes a stored policy unreadable.
	if _, err := CompileStored(Source{Condition: "newerFunction()"}); err == nil {
		t.Error("an unknown function compiles as stored")
	}
}
