package server

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
)

// TestWhoMayVoteIsWorkedOutOncePerVote: for an organization whose policies
// read the clock, whether a policy asks for consensus is not cached across
// requests (it changes with time), but within one request, at its one
// instant, it is the same for every member. A vote must work it out once,
// not once per member evaluate asks about: each time costs up to a
// decision's budget, inside the write transaction.
//
// The policies' time expressions outrun the budget before telling, which
// the service logs each time it works the answer out.
func TestWhoMayVoteIsWorkedOutOncePerVote(t *testing.T) {
	e, logs, extra := newCostlyClockEnv(t)
	ctx := ctxWithin(t, 5*time.Minute)
	act, err := e.clients["alice"].CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "t", UserIDs: []string{}})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("submit: %v %+v", err, act)
	}
	before := strings.Count(logs.String(), "who may vote")
	if _, err := e.clients["bob"].RejectActivity(ctx, act.Fingerprint); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(logs.String(), "who may vote") - before; n > 1 {
		t.Errorf("one rejection worked out who may vote %d times (there are %d members besides the root quorum): once per member, not once per request",
			n, len(extra)+1)
	}
}

// newCostlyClockEnv is an organization with non-root members m00…m07 and
// allow policies on create_user_tag whose time expressions outrun the work
// budget before telling whether they ask for consensus: the service logs
// "who may vote" each time it works that answer out (and offers the vote).
func newCostlyClockEnv(t *testing.T) (*testEnv, *logBuffer, map[string][]string) {
	t.Helper()
	logs := &logBuffer{}
	extra := map[string][]string{}
	for i := range 8 {
		extra[fmt.Sprintf("m%02d", i)] = nil
	}
	twenty := "[" + strings.Repeat("1,", 19) + "1]"
	// Every loop runs to its end, and the policy is never active.
	costly := fmt.Sprintf("%s.all(a, %s.all(b, %s.all(c, time.now > Timestamp('2000-01-01T00:00:00Z')))) && %s.size() > 100",
		twenty, twenty, twenty, twenty)
	c, err := policy.CompileSource(policy.Source{Time: costly, Consensus: "approvers.count() >= 2"})
	if err != nil {
		t.Fatal(err)
	}
	one := policy.Decide([]policy.Policy{{ID: "p", Effect: api.EffectAllow, Compiled: c}},
		policy.Input{Now: time.Now()}, policy.Quorum{Threshold: 9}, false)
	if one.Work < 10_000 || one.Exhausted {
		t.Fatalf("measuring a time expression's work: %+v", one)
	}
	work := costlyBudget(one.Work)
	e := newEnvWith(t, envOptions{threshold: 2, extra: extra, log: logs, policyWork: work})
	// AwaitsConsensus does less than a decision (no consensus): twice as many.
	for i := range 2 * (work/one.Work + 1) {
		e.addTimedPolicy(api.CreatePolicyParams{PolicyName: fmt.Sprint("costly ", i), Effect: api.EffectAllow,
			Condition: "activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG'", Consensus: "approvers.count() >= 2", Time: costly})
	}
	return e, logs, extra
}

// A non-root member's vote asks who may vote twice: whether the voter may
// (the vote's own check) and who else may still (evaluate). Both ask at the
// request's one instant, so the one answer serves both: under policies that
// read the clock (not cached across requests) it is worked out once.
func TestANonRootVoteWorksOutWhoMayVoteOnce(t *testing.T) {
	e, logs, _ := newCostlyClockEnv(t)
	ctx := ctxWithin(t, 5*time.Minute)
	act, err := e.clients["alice"].CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "t", UserIDs: []string{}})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("submit: %v %+v", err, act)
	}
	before := strings.Count(logs.String(), "who may vote")
	voted, err := e.clients["m00"].ApproveActivity(ctx, act.Fingerprint)
	if err != nil {
		t.Fatalf("m00, offered the vote, approves: %v", err)
	}
	if voted.VoteOf(e.user("m00")) == nil {
		t.Fatalf("m00's approval is not on the activity: %+v", voted.Votes)
	}
	if n := strings.Count(logs.String(), "who may vote") - before; n != 1 {
		t.Errorf("one non-root approval worked out who may vote %d times; want once per request", n)
	}
}
