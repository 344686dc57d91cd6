package screens

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
	"github.com/vigil-console/vigil/server/servertest"
)

// An activity whose 24-hour round ended keeps CONSENSUS_NEEDED, and the
// service returns no vote of the ended round; get_policy_evaluations still
// returns the submission's evaluation (REQUIRES_CONSENSUS: alice, a root
// member, approved 1 of 2). Decided again on the votes left (none), it read
// "failed: implicit deny"; once bob and carol complete it in the next round,
// alice's waiting evaluation read "approved by the root quorum". It must say
// its round's votes are gone and show the stored outcomes.
func TestEvaluationOfEndedRoundNotDecidedAgain(t *testing.T) {
	_, offset, client := clockedDemo(t)
	ctx := context.Background()
	act, err := client("alice").CreatePolicy(ctx, api.CreatePolicyParams{PolicyName: "old round", Effect: api.EffectAllow,
		Condition: "activity.type == 'ACTIVITY_TYPE_CREATE_READ_ONLY_SESSION'"})
	if err != nil {
		t.Fatal(err)
	}
	if act.Status != api.StatusConsensusNeeded {
		t.Fatalf("status %s", act.Status)
	}
	offset.Store(int64(25 * time.Hour)) // the round of alice's approval has ended
	check := func(when string, want int) {
		t.Helper()
		a, err := client("alice").GetActivity(ctx, act.ID)
		if err != nil {
			t.Fatal(err)
		}
		evs, err := client("alice").GetPolicyEvaluations(ctx, act.ID)
		if err != nil || len(evs) != want {
			t.Fatalf("evaluations %+v %v", evs, err)
		}
		_, ec := demoEvaluations(t, client("alice"))
		ex := explainEvaluation(ec, *a, evs[0]) // alice's submission
		t.Logf("%s: status %s, votes %d; explanation outcome %q why %q differs %v", when, a.Status, len(a.Votes), ex.Outcome, ex.Why, ex.Differs)
		if !ex.Differs || ex.Outcome != "" || !strings.Contains(ex.Why, policy.ErrVoteNotReturned.Error()) {
			t.Errorf("%s: the service decided REQUIRES_CONSENSUS at alice's submission, in a round whose votes it no longer returns; "+
				"the console explains it as %q: %q", when, ex.Outcome, ex.Why)
		}
	}
	check("round ended", 1)
	for _, who := range []string{"bob", "carol"} {
		if _, err := client(who).ApproveActivity(ctx, act.Fingerprint); err != nil {
			t.Fatal(err)
		}
	}
	check("completed in the next round", 3)
}

// A rejection that leaves the activity waiting stores what the policies gave
// for the approvals counted (the service never acts on it): here an allow
// policy created since the last approval reads OUTCOME_ALLOW. The console
// explained that evaluation as "allowed by policy …" — the activity was
// neither allowed nor completed by it, and still waits.
func TestRejectionThatKeepsWaitingExplainedAsWaiting(t *testing.T) {
	d := servertest.StartDemo(t)
	ctx := context.Background()
	tag, err := d.Client("operator").CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "waiting-tag", UserIDs: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	if tag.Status != api.StatusConsensusNeeded {
		t.Fatalf("create_user_tag is %s", tag.Status)
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
	if err != nil {
		t.Fatal(err)
	}
	if after.Status != api.StatusConsensusNeeded {
		t.Fatalf("after alice's rejection the activity is %s", after.Status)
	}
	evs, err := d.Client("alice").GetPolicyEvaluations(ctx, tag.ID)
	if err != nil || len(evs) != 2 {
		t.Fatalf("evaluations %+v %v", evs, err)
	}
	_, ec := demoEvaluations(t, d.Client("alice"))
	ex := explainEvaluation(ec, *after, evs[1]) // alice's rejection
	t.Logf("stored %+v; explanation %s: %q", evs[1].PolicyEvaluations, ex.Outcome, ex.Why)
	if ex.Outcome != api.OutcomeRequiresConsensus || !strings.Contains(ex.Why, `"alice"'s rejection left the activity pending`) {
		t.Errorf("the rejection's evaluation is explained as %s (%q), but nothing was allowed: the service keeps the activity %s",
			ex.Outcome, ex.Why, after.Status)
	}
	if len(ex.Policies) != len(evs[1].PolicyEvaluations) {
		t.Errorf("the policies' lines of the rejection's evaluation are not kept: %+v", ex.Policies)
	}
}
