package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// The console's TestRejectionThatKeepsWaitingExplainedAsWaiting, through the
// CLI: a rejection that leaves the activity waiting stores what the policies
// gave for the approvals counted — here OUTCOME_ALLOW from an allow policy
// created since. The console says "waiting: "alice"'s rejection left the
// activity pending"; 'activity evaluations' printed the rejection's
// evaluation as one row "OUTCOME_ALLOW  tags need nobody", nothing saying it
// is a rejection or that nothing was allowed. Every row of it must say so,
// and a row must name the rejection and say the activity kept waiting.
func TestEvaluationsRejectionThatKeepsWaitingNotReadAsAllowed(t *testing.T) {
	e := newVerbEnv(t)
	ctx := context.Background()
	tag, err := e.client("operator").CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "rejected-waiting", UserIDs: []string{}})
	if err != nil || tag.Status != api.StatusConsensusNeeded {
		t.Fatalf("create_user_tag: %+v %v", tag, err)
	}
	pol, err := e.client("alice").CreatePolicy(ctx, api.CreatePolicyParams{PolicyName: "tags need nobody", Effect: api.EffectAllow,
		Condition: "activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG'"})
	if err != nil {
		t.Fatal(err)
	}
	if pol.Status == api.StatusConsensusNeeded {
		if pol, err = e.client("bob").ApproveActivity(ctx, pol.Fingerprint); err != nil || pol.Status != api.StatusCompleted {
			t.Fatalf("create_policy: %+v %v", pol, err)
		}
	}
	after, err := e.client("alice").RejectActivity(ctx, tag.Fingerprint)
	if err != nil || after.Status != api.StatusConsensusNeeded {
		t.Fatalf("after alice's rejection: %+v %v", after, err)
	}
	evs, err := e.client("alice").GetPolicyEvaluations(ctx, tag.ID)
	if err != nil || len(evs) != 2 {
		t.Fatalf("evaluations %+v %v", evs, err)
	}
	code, out, errOut := e.run("", "activity", "evaluations", tag.ID)
	wantExit(t, "evaluations", code, 0, out, errOut)
	t.Logf("stored %+v\n%s", evs[1].PolicyEvaluations, out)
	waiting := false
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, api.SanitizeID(evs[1].ID)) && strings.Contains(l, api.OutcomeRequiresConsensus) &&
			strings.Contains(l, `rejection by "alice"`) && strings.Contains(l, "waiting") {
			waiting = true
		}
		if !strings.Contains(l, api.SanitizeID(evs[1].ID)) && !strings.HasPrefix(strings.TrimSpace(l), "OUTCOME_ALLOW") {
			continue
		}
		if strings.Contains(l, "OUTCOME_ALLOW") && !strings.Contains(strings.ToLower(l), "reject") && !strings.Contains(l, "waiting") {
			t.Errorf("alice's rejection's evaluation reads as allowed, the activity still %s:\n%s", after.Status, l)
		}
	}
	if !waiting {
		t.Errorf("no row of alice's rejection's evaluation says it left the activity waiting:\n%s", out)
	}
}
