package screens

import (
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// Sorting the MFA policies by ORDER (o) lists them as the service evaluates
// them, lower order first, for any order a reply holds: a negative one or
// one of more than six digits (a broken or hostile service's) included.
func TestMfaSortByOrderIsEvaluationOrder(t *testing.T) {
	h, fake := mfaHarness(t, false)
	step := []api.AuthenticationStep{{Any: []api.AuthenticationMethod{{Type: api.AuthSession}}}}
	fake.mfaPolicies = map[string][]api.MfaPolicy{"u-alice": {
		{MfaPolicyID: "mp-a", MfaPolicyName: "order minus five", Order: -5, Condition: "true", RequiredAuthenticationMethods: step},
		{MfaPolicyID: "mp-b", MfaPolicyName: "order minus one", Order: -1, Condition: "true", RequiredAuthenticationMethods: step},
		{MfaPolicyID: "mp-c", MfaPolicyName: "order 200000", Order: 200000, Condition: "true", RequiredAuthenticationMethods: step},
		{MfaPolicyID: "mp-d", MfaPolicyName: "order a million", Order: 1000000, Condition: "true", RequiredAuthenticationMethods: step},
	}}
	h.key("r")
	want := []string{"order minus five", "order minus one", "order 200000", "order a million"}
	inOrder := func(out string) bool {
		at := -1
		for _, name := range want {
			i := strings.Index(out, name)
			if i < at {
				return false
			}
			at = i
		}
		return true
	}
	if out := h.frame(); !inOrder(out) {
		t.Fatalf("the list is not in evaluation order before sorting:\n%s", out)
	}
	h.key("o")
	if s := h.mfa().list.SortHelp(); !strings.Contains(s, "ORDER") {
		t.Fatalf("o did not sort by ORDER: %q", s)
	}
	if out := h.frame(); !inOrder(out) {
		t.Errorf("sorted by ORDER, the policies are not in evaluation order (%s):\n%s", strings.Join(want, ", "), out)
	}
}
