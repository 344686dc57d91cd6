package screens

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// Every evaluation the local service stored for the demo's activities is
// reproduced exactly from what the service returns (the votes up to the
// evaluation's vote, its time, the policies it ran, the members and the
// quorum): explanations never fall back to "not reproducible" there, and
// each has a why line that starts with its outcome's word.
func TestEveryDemoEvaluationIsReproduced(t *testing.T) {
	demo := servertest.StartDemo(t)
	c := demo.Client("alice")
	ctx := context.Background()
	acts, ec := demoEvaluations(t, c)
	n := 0
	seen := map[string]bool{}
	for _, a := range acts {
		evs, err := c.GetPolicyEvaluations(ctx, a.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range evs {
			n++
			ex := explainEvaluation(ec, a, e)
			if ex.Differs || len(ex.Unknown) > 0 {
				t.Errorf("%s (%s) evaluation %s is not reproducible: stored %+v, why %q", a.ID, a.Type, e.ID, e.PolicyEvaluations, ex.Why)
				continue
			}
			prefix := map[string]string{api.OutcomeAllow: "allowed by ", api.OutcomeDenyExplicit: "denied explicitly by ",
				api.OutcomeRequiresConsensus: "waiting: ", api.OutcomeDenyImplicit: "failed: ", api.OutcomeRejected: "rejected: "}[ex.Outcome]
			if prefix == "" || !strings.HasPrefix(ex.Why, prefix) {
				t.Errorf("%s: outcome %s with why %q", a.ID, ex.Outcome, ex.Why)
			}
			seen[ex.Outcome] = true
		}
	}
	if n == 0 {
		t.Fatal("the demo has no evaluations")
	}
	for _, o := range []string{api.OutcomeAllow, api.OutcomeRequiresConsensus, api.OutcomeRejected, api.OutcomeDenyExplicit} {
		if !seen[o] {
			t.Errorf("no demo evaluation ended %s; seen %v", o, seen)
		}
	}
}

// demoEvaluations reads the demo organization's newest activities and what
// explaining their evaluations needs (members, quorum, policies), as the
// console loads them.
func demoEvaluations(t *testing.T, c *api.Client) ([]api.Activity, evaluationContext) {
	t.Helper()
	ctx := context.Background()
	acts, err := c.ListActivities(ctx, api.ListActivitiesOptions{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	users, err := c.ListUsers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := c.GetOrganizationConfigs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	pols, err := c.ListPolicies(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return acts, newEvaluationContext(nil, users, *cfg, pols)
}
