package policy

import (
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// The MFA policy a vote must satisfy is the first, in order, whose condition
// holds; one whose condition cannot run applies (fail closed), and says why.
func TestApplicableMfaPolicy(t *testing.T) {
	pols := []api.MfaPolicy{
		{MfaPolicyName: "big transfers", Condition: "activity.type == 'X'"},
		{MfaPolicyName: "sessions", Condition: "true"},
	}
	compile := func(cond string) (*Compiled, error) { return Compile(cond, "") }
	on := func(typ string) Input {
		return InputOfActivity(api.Activity{Type: typ}, nil, time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC))
	}
	if got, err := ApplicableMfaPolicy(pols, on("X"), compile); err != nil || got == nil || got.MfaPolicyName != "big transfers" {
		t.Errorf("activity X: %+v %v, want big transfers", got, err)
	}
	if got, err := ApplicableMfaPolicy(pols, on(api.TypeCreatePolicyV3), compile); err != nil || got == nil || got.MfaPolicyName != "sessions" {
		t.Errorf("another activity: %+v %v, want sessions", got, err)
	}
	if got, err := ApplicableMfaPolicy(pols[:1], on(api.TypeCreatePolicyV3), compile); err != nil || got != nil {
		t.Errorf("no condition holds: %+v %v, want none", got, err)
	}
	broken := append([]api.MfaPolicy{{MfaPolicyName: "broken", Condition: "true =="}}, pols...)
	if got, err := ApplicableMfaPolicy(broken, on("X"), compile); got == nil || got.MfaPolicyName != "broken" || err == nil {
		t.Errorf("a condition that does not compile: %+v %v, want it to apply, with why", got, err)
	}
}
