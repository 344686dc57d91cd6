package screens

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui/theme"
)

// policiesFail is the fake whose ListPolicies fails while fail is set.
type policiesFail struct {
	*fakeClient
	fail bool
}

func (p *policiesFail) ListPolicies(ctx context.Context) ([]api.Policy, error) {
	if p.fail {
		return nil, errors.New("list policies: 503 service unavailable")
	}
	return p.fakeClient.ListPolicies(ctx)
}

// "A reload of the organization that fails after its first call keeps the
// names of users and policies the console knew" (docs/console.md): however
// many such failures come in a row, never only the first — the kept
// organization is not a partial one to be replaced.
func TestHalfFailedOrgReloadsInARowKeepTheWholeOrganization(t *testing.T) {
	fake := &fakeClient{activities: sampleActivities()}
	c := &policiesFail{fakeClient: fake}
	h := newHarnessWith(t, c, c, theme.Options{Dark: true, NoColor: true}, 0)
	org := func() Org { return h.root.common.Org }
	if org().PolicyNames["pol-ops"] == "" || len(org().Eval.members) == 0 {
		t.Fatalf("set-up: the first load is whole: %+v", org().PolicyNames)
	}
	c.fail = true
	h.send(reloadOrgMsg{})
	if org().PolicyNames["pol-ops"] == "" {
		t.Fatalf("the first half-failed reload already dropped the policy names")
	}
	h.send(reloadOrgMsg{})
	if org().PolicyNames["pol-ops"] == "" || len(org().Eval.members) == 0 {
		t.Errorf("the second half-failed reload in a row dropped the organization the console knew: policy names %v, members %d",
			org().PolicyNames, len(org().Eval.members))
	}
	// What it does to the vote dialog: no longer says what the vote would do.
	h.key("a")
	if f := h.frame(); !strings.Contains(f, "if you approve") {
		t.Errorf("the vote dialog no longer says what the vote would do:\n%s", f)
	}
}
