package screens

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// A FAILED activity will never have a result: its detail does not say
// "(none yet)" as if one were still to come, and its failure names the
// policy that denied it by name as well as by id, as the evaluation below it
// does.
func TestFailedActivityDetailSaysWhyNoResultAndNamesTheDenyingPolicy(t *testing.T) {
	d := servertest.StartDemo(t)
	alice := d.Client("alice")
	ctx := context.Background()
	failed, err := alice.ListActivities(ctx, api.ListActivitiesOptions{Statuses: []string{api.StatusFailed}})
	if err != nil || len(failed) == 0 {
		t.Fatalf("the demo has a FAILED activity: %v %d", err, len(failed))
	}
	act := failed[0]
	policies, err := alice.ListPolicies(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var denier *api.Policy
	for i, p := range policies {
		if act.Failure != nil && strings.Contains(act.Failure.Message, p.PolicyID) {
			denier = &policies[i]
		}
	}
	if denier == nil {
		t.Fatalf("the demo's FAILED activity names no policy: %+v", act.Failure)
	}
	h := memberConsole(t, alice)
	h.key("v")
	h.key("g")
	h.selectActivityID(act.ID)
	h.key("enter")
	out := h.frame()
	if strings.Contains(out, "(none yet)") {
		t.Errorf("a FAILED activity's result reads \"(none yet)\":\n%s", out)
	}
	if !strings.Contains(out, "(none: the activity FAILED)") {
		t.Errorf("the FAILED activity's detail does not say why it has no result:\n%s", out)
	}
	failure := ""
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "failure") {
			failure = l
		}
	}
	if !strings.Contains(failure, denier.PolicyID) || !strings.Contains(failure, `"`+denier.PolicyName+`"`) {
		t.Errorf("the failure does not name the denying policy %q (%s):\n%s", denier.PolicyName, denier.PolicyID, out)
	}
}

func TestNoResultTextSaysWhetherOneMayCome(t *testing.T) {
	for status, want := range map[string]string{
		api.StatusFailed:          "FAILED",
		api.StatusRejected:        "REJECTED",
		api.StatusConsensusNeeded: "yet",
		api.StatusPending:         "yet",
	} {
		if got := noResultText(status); !strings.Contains(got, want) {
			t.Errorf("%s: %q, want it to say %s", status, got, want)
		}
	}
}
