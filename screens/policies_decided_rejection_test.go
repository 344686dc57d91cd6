package screens

import (
	"context"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// A rejection that leaves the activity waiting stores what the policies gave
// (here OUTCOME_ALLOW from an allow policy created since), but the service
// decided nothing by them. The Policies screen listed that activity among
// those the allow policy "decided", though it still waits.
func TestPolicyDecidedSkipsRejectionEvaluation(t *testing.T) {
	d := servertest.StartDemo(t)
	ctx := context.Background()
	tag, err := d.Client("operator").CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "decided-waiting", UserIDs: []string{}})
	if err != nil || tag.Status != api.StatusConsensusNeeded {
		t.Fatalf("create_user_tag: %+v %v", tag, err)
	}
	pol, err := d.Client("alice").CreatePolicy(ctx, api.CreatePolicyParams{PolicyName: "tags need nobody", Effect: api.EffectAllow,
		Condition: "activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG'"})
	if err != nil {
		t.Fatal(err)
	}
	if pol = approvedByBob(t, d, pol); pol.Status != api.StatusCompleted {
		t.Fatalf("create_policy is %s", pol.Status)
	}
	after, err := d.Client("alice").RejectActivity(ctx, tag.Fingerprint)
	if err != nil || after.Status != api.StatusConsensusNeeded {
		t.Fatalf("after alice's rejection: %+v %v", after, err)
	}
	h := newHarnessWith(t, d.Client("carol"), d.Client("carol"), theme.Options{Dark: true, NoColor: true}, 0)
	h.gotoScreen("Policies")
	p := h.policies()
	h.run(p.wantRecent())
	var id string
	for _, ra := range p.data.recent {
		if ra.act.ID == tag.ID && ra.last != nil {
			id = ra.act.ID
		}
	}
	if id == "" {
		t.Fatalf("the activity is not among the recent ones with an evaluation")
	}
	pols, err := d.Client("alice").ListPolicies(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var polID string
	for _, x := range pols {
		if x.PolicyName == "tags need nobody" {
			polID = x.PolicyID
		}
	}
	if polID == "" {
		t.Fatalf("the allow policy is not listed")
	}
	for _, ra := range p.decided(polID) {
		if ra.act.ID == tag.ID {
			t.Errorf("the activity, still %s after alice's rejection, is listed as decided by the allow policy", ra.act.Status)
		}
	}
}
