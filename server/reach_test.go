package server

import (
	"fmt"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
)

// TestCostlyRejectionFailsSafe: in an organization whose policies are too
// costly for the search of policy.Reachable to finish within its budget, a
// rejection leaves the activity CONSENSUS_NEEDED (it is not rejected on a
// guess, and the wire says so: no OUTCOME_REJECTED), while the last
// member's rejection, which needs no search, still rejects it.
func TestCostlyRejectionFailsSafe(t *testing.T) {
	fifty := "[" + strings.Repeat("1,", 49) + "1]"
	twenty := "[" + strings.Repeat("1,", 19) + "1]"
	loops := fmt.Sprintf("%s.all(a, %s.all(b, %s.all(c, a + b + c > 0)))", fifty, twenty, twenty)
	condition := "activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG' && " + loops
	consensus := loops + " && approvers.size() > 100" // never met

	// How many such policies outrun the budget in one decision.
	c, err := policy.Compile(condition, consensus)
	if err != nil {
		t.Fatal(err)
	}
	one := policy.Decide([]policy.Policy{{ID: "p", Effect: api.EffectAllow, Compiled: c}},
		policy.Input{Activity: policy.Activity{Type: api.TypeCreateUserTag}}, policy.Quorum{Threshold: 9}, false)
	if one.Work == 0 {
		t.Fatal("measuring a policy's work gave 0")
	}
	work := costlyBudget(one.Work)
	e := newEnvWith(t, envOptions{threshold: 2, policyWork: work})
	ctx := ctxT(t)
	for i := range work/one.Work + 1 {
		e.addPolicy(fmt.Sprint("costly ", i), api.EffectAllow, condition, consensus)
	}

	act, err := e.clients["alice"].CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "x", UserIDs: []string{e.user("bob")}})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("submit: %v %+v", err, act)
	}
	if _, err := e.clients["bob"].RejectActivity(ctx, act.Fingerprint); err != nil {
		t.Fatal(err)
	}
	// Only the operator, who cannot meet the consensus, is left; the search
	// that would tell runs out of budget.
	after, err := e.clients["carol"].RejectActivity(ctx, act.Fingerprint)
	if err != nil {
		t.Fatal(err)
	}
	if after.Status != api.StatusConsensusNeeded {
		t.Fatalf("after a rejection whose search ran out of budget: %s, want CONSENSUS_NEEDED", after.Status)
	}
	if evals := lastEvaluation(t, e, act.ID); evals[len(evals)-1].Outcome == api.OutcomeRejected {
		t.Fatalf("the evaluation says REJECTED while the activity waits: %+v", evals)
	}
	seen, err := e.clients["operator"].GetActivity(ctx, act.ID)
	if err != nil || !seen.CanReject {
		t.Fatalf("the operator cannot vote on the waiting activity: %v %+v", err, seen)
	}
	after, err = e.clients["operator"].RejectActivity(ctx, act.Fingerprint)
	if err != nil {
		t.Fatal(err)
	}
	if after.Status != api.StatusRejected {
		t.Fatalf("after the last member's rejection: %s, want REJECTED", after.Status)
	}
	if evals := lastEvaluation(t, e, act.ID); evals[len(evals)-1].Outcome != api.OutcomeRejected {
		t.Fatalf("last evaluation = %+v, want OUTCOME_REJECTED", evals)
	}
}

func lastEvaluation(t *testing.T, e *testEnv, activityID string) []api.PolicyOutcome {
	t.Helper()
	evals, err := e.clients["alice"].GetPolicyEvaluations(ctxT(t), activityID)
	if err != nil || len(evals) == 0 {
		t.Fatalf("get_policy_evaluations: %v %+v", err, evals)
	}
	last := evals[len(evals)-1].PolicyEvaluations
	if len(last) == 0 {
		t.Fatal("the last evaluation has no outcomes")
	}
	return last
}

// lastOutcomes is the activity's last policy evaluation as each policy's
// outcome, by policy id.
func lastOutcomes(t *testing.T, e *testEnv, activityID string) map[string]string {
	t.Helper()
	outcomes := map[string]string{}
	for _, o := range lastEvaluation(t, e, activityID) {
		outcomes[o.PolicyID] = o.Outcome
	}
	return outcomes
}
