package policy

import (
	"testing"

	"github.com/vigil-console/vigil/api"
)

// A deny that can match create_policy, in an organization whose root quorum
// needs more than one approval, fails every later create_policy at its
// submission and cannot be undone: it is warned of; a deny that cannot match
// create_policy, an allow, or a root quorum of one is not.
func TestIrreversibleDenyWarnsOfDenyOnCreatePolicy(t *testing.T) {
	tests := []struct {
		effect, condition string
		threshold         int
		want              bool
	}{
		{api.EffectDeny, "activity.resource == 'POLICY'", 2, true},
		{api.EffectDeny, "activity.type == 'ACTIVITY_TYPE_CREATE_POLICY_V3'", 2, true},
		{api.EffectDeny, "activity.action == 'CREATE'", 2, true},
		{api.EffectDeny, "", 2, true},
		{api.EffectDeny, "true", 3, true},
		{api.EffectDeny, "activity.resource == 'POLICY'", 0, true}, // threshold not known
		{api.EffectDeny, "activity.resource == 'WALLET'", 2, false},
		{api.EffectDeny, "activity.resource == 'POLICY' && activity.action == 'DELETE'", 2, false},
		{api.EffectDeny, "activity.resource == 'POLICY'", 1, false},
		{api.EffectAllow, "activity.resource == 'POLICY'", 2, false},
	}
	for _, tc := range tests {
		if _, got := IrreversibleDeny(tc.effect, Source{Condition: tc.condition}, tc.threshold); got != tc.want {
			t.Errorf("%s %q, threshold %d: warned %v, want %v", tc.effect, tc.condition, tc.threshold, got, tc.want)
		}
	}
}
