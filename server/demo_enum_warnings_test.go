package server

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
	"github.com/vigil-console/vigil/policy"
)

// The demo organization's policies and MFA policies, as the service lists
// them, draw no warning that a comparison of the activity's type, kind,
// resource or action is never (or always) true (audit 214, M1).
func TestDemoSeedPoliciesDrawNoEnumWarning(t *testing.T) {
	srv, err := Open(Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()
	keysDir := t.TempDir()
	info, err := SeedDemo(context.Background(), srv, keysDir)
	if err != nil {
		t.Fatal(err)
	}
	k, err := keys.Store{Dir: keysDir}.Load(info.Members[0].KeyName)
	if err != nil {
		t.Fatal(err)
	}
	c, err := api.NewClient(hs.URL, info.OrganizationID, k)
	if err != nil {
		t.Fatal(err)
	}
	ps, err := c.ListPolicies(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	conditions := map[string]string{}
	for _, p := range ps {
		conditions["policy "+p.PolicyName] = p.Condition
	}
	for _, m := range allMfaPolicies(t, c) {
		conditions["MFA policy "+m.MfaPolicyName] = m.Condition
	}
	if len(conditions) < 5 {
		t.Fatalf("the demo has %d policies: the test covers too little", len(conditions))
	}
	for name, cond := range conditions {
		for _, w := range policy.Warnings(policy.Source{Condition: cond}) {
			// Only the enum warnings: the demo's treasury policy reads a
			// parameter the real service does not expose, on purpose.
			if strings.Contains(w.Message, "is never an activity.") {
				t.Errorf("%s (%q) is warned: %s", name, cond, w.Message)
			}
		}
	}
}
