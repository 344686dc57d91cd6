package screens

import (
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
)

// unreadableAllowFixture is an organization with a stored allow policy this
// vigil cannot compile, and an activity the service completed by it.
func unreadableAllowFixture() (evaluationContext, api.Activity, api.PolicyEvaluation) {
	at := time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC)
	users := []api.User{{UserID: "u-alice", UserName: "alice"}, {UserID: "u-root", UserName: "root"}}
	quorum := api.Quorum{Threshold: 1, UserIDs: []string{"u-root"}}
	records := []api.Policy{{PolicyID: "p-newer", PolicyName: "Newer allow", Effect: api.EffectAllow, Condition: "newerFunction()"}}
	ec := newEvaluationContext(nil, users, api.OrganizationConfigs{Quorum: quorum}, records)
	a := api.Activity{ID: "act-1", Type: api.TypeCreateUserTag, Status: api.StatusCompleted,
		Intent:    api.Intent{CreateUserTagIntent: &api.CreateUserTagParams{UserTagName: "x", UserIDs: []string{}}},
		Votes:     []api.Vote{{ID: "v1", UserID: "u-alice", Selection: api.VoteApproved, CreatedAt: api.NewTime(at)}},
		CreatedAt: api.NewTime(at), UpdatedAt: api.NewTime(at)}
	e := api.PolicyEvaluation{ID: "e1", VoteID: "v1", CreatedAt: api.NewTime(at),
		PolicyEvaluations: []api.PolicyOutcome{{PolicyID: "p-newer", Outcome: api.OutcomeAllow}}}
	return ec, a, e
}

// An evaluation decided by a policy the console cannot compile is explained
// as that, not as policies or members having changed (nothing did), and
// asks for no reload (the policy is known, a reload would not help).
func TestEvaluationByUnreadablePolicyNamesIt(t *testing.T) {
	ec, a, e := unreadableAllowFixture()
	ex := explainEvaluation(ec, a, e)
	if strings.Contains(ex.Why, "changed since") || !strings.Contains(ex.Why, "Newer allow") || !strings.Contains(ex.Why, "cannot be read") {
		t.Errorf("why %q: want it to say policy 'Newer allow' cannot be read by this console", ex.Why)
	}
	if len(ex.Unknown) > 0 {
		t.Errorf("unknown %v: a reload would not make the policy readable", ex.Unknown)
	}
	if s := ec.unreadableSummary(); !strings.Contains(s, "Newer allow") {
		t.Errorf("summary %q does not name the unreadable policy", s)
	}
}

// A deny draft that would block an activity the service completed (by a
// policy this console cannot read) is a possible lock-out, not a pass.
func TestDenyDraftOverActivityCompletedByUnreadablePolicyLocksOut(t *testing.T) {
	ec, a, _ := unreadableAllowFixture()
	draft, err := policy.CompileSource(policy.Source{Condition: "activity.resource == 'USER'"})
	if err != nil {
		t.Fatal(err)
	}
	s := policy.SimulateActivity(ec.ordered, policy.Policy{ID: "draft", Effect: api.EffectDeny, Compiled: draft}, a, ec.members, policy.QuorumOf(ec.quorum), time.Now())
	if s.WithDraft.Outcome != api.OutcomeDenyExplicit {
		t.Fatalf("with the draft %s: the test's premise is gone", s.WithDraft.Outcome)
	}
	if !s.LocksOut {
		t.Errorf("the service completed this activity; today's replay says %s and the deny draft %s, but it is not flagged as a lock-out",
			s.Today.Outcome, s.WithDraft.Outcome)
	}
}
