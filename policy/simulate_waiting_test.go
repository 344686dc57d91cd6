package policy_test

import (
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
)

// simMembers and simQuorum are an organization of two members and a root
// quorum of two.
var simMembers = map[string]policy.Approver{
	"alice": {ID: "alice", Name: "alice"},
	"bob":   {ID: "bob", Name: "bob"},
	"root1": {ID: "root1", Name: "root1", Root: true},
	"root2": {ID: "root2", Name: "root2", Root: true},
}

var simQuorum = policy.Quorum{Threshold: 2, UserIDs: []string{"root1", "root2"}}

// An activity still waiting (CONSENSUS_NEEDED) is decided again only at its
// next approval, with every vote of its round and the clock of then. A draft
// deny active only when it was submitted (a time window long over) cannot
// fail it: the simulation must not replay the past submission and say the
// draft FAILS it there and locks it out.
func TestSimulateWaitingActivityDecidesAtNextApprovalNotPastSubmission(t *testing.T) {
	now := time.Now().UTC()
	t0 := now.Add(-3 * time.Hour) // submitted by alice
	t1 := now.Add(-2 * time.Hour) // approved by bob
	mid := t0.Add(30 * time.Minute)
	allow, err := policy.Compile("activity.resource == 'WALLET'", "approvers.count() >= 3")
	if err != nil {
		t.Fatal(err)
	}
	current := []policy.Policy{{ID: "p1", Effect: api.EffectAllow, Compiled: allow}}
	draftC, err := policy.CompileSource(policy.Source{Time: "time.now < Timestamp('" + mid.Format(time.RFC3339) + "')"})
	if err != nil {
		t.Fatal(err)
	}
	draft := policy.Policy{ID: "draft", Effect: api.EffectDeny, Compiled: draftC}
	act := api.Activity{ID: "act-1", Type: "ACTIVITY_TYPE_CREATE_WALLET", Status: api.StatusConsensusNeeded,
		CreatedAt: api.NewTime(t0), UpdatedAt: api.NewTime(t1),
		Votes: []api.Vote{
			{ID: "v1", UserID: "alice", Selection: api.VoteApproved, CreatedAt: api.NewTime(t0)},
			{ID: "v2", UserID: "bob", Selection: api.VoteApproved, CreatedAt: api.NewTime(t1)},
		}}
	// What the service would decide at the next approval (by root1, now).
	next := act
	next.Votes = append(append([]api.Vote{}, act.Votes...), api.Vote{ID: "v3", UserID: "root1", Selection: api.VoteApproved, CreatedAt: api.NewTime(now)})
	in := policy.InputOfActivity(next, simMembers, now)
	svc := policy.Decide(append(append([]policy.Policy{}, current...), draft), in, simQuorum, false)
	if policy.Fails(svc.Outcome) {
		t.Fatalf("premise: the service's next approval fails it (%s)", svc.Outcome)
	}
	sim := policy.SimulateActivity(current, draft, act, simMembers, simQuorum, now)
	if sim.LocksOut || policy.Fails(sim.WithDraft.Outcome) {
		t.Errorf("waiting activity: with the draft the simulation says %s %s, locks out %v; the service's next approval decides %s now (the draft's window ended before bob approved)",
			sim.WithDraft.Outcome, sim.WithDraftAt.Where(), sim.LocksOut, svc.Outcome)
	}
	if !strings.Contains(sim.WithDraftAt.Where(), "next approval") {
		t.Errorf("the simulation says it decided %q; it should say it decided as at the next approval", sim.WithDraftAt.Where())
	}

	// A deny active now does lock it out, and says where it fails it.
	nowDeny, err := policy.CompileSource(policy.Source{Condition: "activity.resource == 'WALLET'"})
	if err != nil {
		t.Fatal(err)
	}
	sim = policy.SimulateActivity(current, policy.Policy{ID: "draft", Effect: api.EffectDeny, Compiled: nowDeny}, act, simMembers, simQuorum, now)
	if !sim.LocksOut {
		t.Errorf("a deny of every wallet is not a lock-out of a waiting wallet: with the draft %s", sim.WithDraft.Outcome)
	}
	if got := policy.FailsAt(sim.WithDraft, sim.WithDraftAt, "x"); !strings.HasPrefix(got, "FAILS at its next approval") {
		t.Errorf("the failure is said %q; it should say at its next approval", got)
	}
}

// An activity the policies allowed whose operation then failed (not
// PERMISSION_DENIED, which is the policies') failed anyway: a deny draft
// takes nothing away from it.
func TestSimulateFailedAtExecutionIsNoLockOut(t *testing.T) {
	at := time.Now().UTC().Add(-time.Hour)
	allow, err := policy.Compile("activity.resource == 'WALLET'", "")
	if err != nil {
		t.Fatal(err)
	}
	deny, err := policy.Compile("activity.resource == 'WALLET'", "")
	if err != nil {
		t.Fatal(err)
	}
	current := []policy.Policy{{ID: "p1", Effect: api.EffectAllow, Compiled: allow}}
	act := api.Activity{ID: "act-2", Type: "ACTIVITY_TYPE_CREATE_WALLET", Status: api.StatusFailed,
		CreatedAt: api.NewTime(at), UpdatedAt: api.NewTime(at),
		Failure: &api.Failure{Code: api.CodeFailedPrecondition, Message: "wallet name taken"},
		Votes:   []api.Vote{{ID: "v1", UserID: "alice", Selection: api.VoteApproved, CreatedAt: api.NewTime(at)}}}
	draft := policy.Policy{ID: "draft", Effect: api.EffectDeny, Compiled: deny}
	sim := policy.SimulateActivity(current, draft, act, simMembers, simQuorum, time.Now())
	if sim.Today.Outcome != api.OutcomeAllow || sim.WithDraft.Outcome != api.OutcomeDenyExplicit {
		t.Fatalf("premise: today %s, with the draft %s", sim.Today.Outcome, sim.WithDraft.Outcome)
	}
	if sim.LocksOut || !sim.FailedInExecution {
		t.Errorf("an activity that failed at execution is counted as locked out by a deny draft (locks out %v, failed in execution %v)", sim.LocksOut, sim.FailedInExecution)
	}
	// Failed by the policies, the failure is theirs: not marked.
	act.Failure = &api.Failure{Code: api.CodePermissionDenied, Message: "denied"}
	if sim := policy.SimulateActivity(current, draft, act, simMembers, simQuorum, time.Now()); sim.FailedInExecution {
		t.Errorf("an activity failed by the policies is marked failed in execution")
	}
}
