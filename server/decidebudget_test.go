package server

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
)

// TestCostlyPoliciesFailSafe: in an organization whose deny policies cost
// more than one decision's work budget, an activity that an allow policy
// allows outright is not completed on the partial evaluation (a deny not
// judged could still win): it waits, the record marks the policies not
// judged as OUTCOME_ERROR, a warning is logged, and the root quorum can still
// complete it. A deny found within the budget still fails an activity.
func TestCostlyPoliciesFailSafe(t *testing.T) {
	const isTag = "activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG'"
	fifty := "[" + strings.Repeat("1,", 49) + "1]"
	twenty := "[" + strings.Repeat("1,", 19) + "1]"
	loops := fmt.Sprintf("%s.all(a, %s.all(b, %s.all(c, a + b + c > 0)))", fifty, twenty, twenty)
	costly := loops + " && approvers.size() > 100" // never met: the deny does not apply

	// How many such policies outrun the budget in one decision.
	c, err := policy.Compile(isTag, costly)
	if err != nil {
		t.Fatal(err)
	}
	one := policy.Decide([]policy.Policy{{ID: "p", Effect: api.EffectDeny, Compiled: c}},
		policy.Input{Activity: policy.Activity{Type: api.TypeCreateUserTag}}, policy.Quorum{Threshold: 9}, false)
	if one.Work == 0 || one.Exhausted {
		t.Fatalf("measuring a policy's work: %+v", one)
	}
	work := costlyBudget(one.Work)
	logs := &logBuffer{}
	e := newEnvWith(t, envOptions{threshold: 2, log: logs, policyWork: work})
	ctx := ctxWithin(t, 5*time.Minute) // each request runs a decision to its budget

	allow := e.addPolicy("allow tags", api.EffectAllow, isTag, "")
	blocked := e.addPolicy("no blocked tags", api.EffectDeny, isTag+" && activity.params.userTagName == 'blocked'", "")
	// Within the budget the allow decides: the activity completes.
	e.addPolicy("costly 0", api.EffectDeny, isTag, costly)
	act, err := e.clients["operator"].CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "cheap", UserIDs: []string{}})
	if err != nil || act.Status != api.StatusCompleted {
		t.Fatalf("submit within the budget: %v %+v", err, act)
	}

	for i := range work/one.Work + 1 {
		e.addPolicy(fmt.Sprint("costly ", i+1), api.EffectDeny, isTag, costly)
	}

	act, err = e.clients["operator"].CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "x", UserIDs: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	if act.Status != api.StatusConsensusNeeded {
		t.Fatalf("submit over the budget: %s, want CONSENSUS_NEEDED (not completed on a partial evaluation)", act.Status)
	}
	outcomes := lastOutcomes(t, e, act.ID)
	if outcomes[allow] != api.OutcomeError || outcomes[blocked] != api.OutcomeDenyImplicit {
		t.Fatalf("evaluation record: allow %s, deny %s; want the allow not evaluated (OUTCOME_ERROR) and the deny judged",
			outcomes[allow], outcomes[blocked])
	}
	if log := logs.String(); !strings.Contains(log, "work budget") || !strings.Contains(log, act.ID) {
		t.Fatalf("no warning naming the activity was logged:\n%s", log)
	}
	// The root quorum needs no policy evaluated.
	if _, err := e.clients["alice"].ApproveActivity(ctx, act.Fingerprint); err != nil {
		t.Fatal(err)
	}
	done, err := e.clients["bob"].ApproveActivity(ctx, act.Fingerprint)
	if err != nil || done.Status != api.StatusCompleted {
		t.Fatalf("root quorum approval: %v %+v", err, done)
	}

	// Denies are judged first: one that applies decides within the budget.
	act, err = e.clients["operator"].CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "blocked", UserIDs: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	if act.Status != api.StatusFailed || act.Failure == nil || !strings.Contains(act.Failure.Message, blocked) {
		t.Fatalf("submit of a denied activity over the budget: %s %+v, want FAILED by %s", act.Status, act.Failure, blocked)
	}
}

// TestCostlyConditionsOfferTheVote: whether a non-root member may vote is
// found under a decision's budget too. Behind allow policies whose costly
// conditions outrun it, the service cannot tell whether a policy asks for the
// member's approval, so it offers the vote (a vote no policy counts changes
// nothing; refusing one a policy asks for would hold the activity) and logs
// why.
func TestCostlyConditionsOfferTheVote(t *testing.T) {
	twenty := "[" + strings.Repeat("1,", 19) + "1]"
	// Every loop runs to its end, and the condition never holds.
	costly := fmt.Sprintf("%s.all(a, %s.all(b, %s.all(c, a + b + c > 0))) && %s.size() > 100", twenty, twenty, twenty, twenty)
	c, err := policy.Compile(costly, "approvers.count() >= 2")
	if err != nil {
		t.Fatal(err)
	}
	in := policy.Input{Activity: policy.ActivityFor(api.TypeCreateUserTag, map[string]any{"userTagName": "pending-tag"})}
	one := policy.Decide([]policy.Policy{{ID: "p", Effect: api.EffectAllow, Compiled: c}}, in, policy.Quorum{Threshold: 9}, false)
	if one.Work < 10_000 || one.Exhausted {
		t.Fatalf("measuring a condition's work: %+v", one)
	}
	work := costlyBudget(one.Work)
	logs := &logBuffer{}
	e := newEnvWith(t, envOptions{threshold: 2, log: logs, policyWork: work})
	ctx := ctxWithin(t, 5*time.Minute) // each request runs a decision to its budget
	act, err := e.clients["alice"].CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "pending-tag", UserIDs: []string{}})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("submit: %v %+v", err, act)
	}
	offered := func() bool {
		t.Helper()
		got, err := e.clients["operator"].GetActivity(ctx, act.ID)
		if err != nil {
			t.Fatal(err)
		}
		return got.CanApprove
	}
	e.addPolicy("costly 0", api.EffectAllow, costly, "approvers.count() >= 2")
	if offered() {
		t.Fatal("operator offered the vote while no policy asks for it and the answer is within the budget")
	}
	for i := range work/one.Work + 1 {
		e.addPolicy(fmt.Sprint("costly ", i+1), api.EffectAllow, costly, "approvers.count() >= 2")
	}
	if !offered() {
		t.Fatal("operator not offered the vote although the policies outran the budget before telling whether one asks for it")
	}
	if log := logs.String(); !strings.Contains(log, "who may vote") || !strings.Contains(log, act.ID) {
		t.Fatalf("no warning naming the activity was logged:\n%s", log)
	}
}
