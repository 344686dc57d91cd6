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
	logs := &logBuffer{}
	extra := map[string][]string{}
	for i := range 8 {
		extra[fmt.Sprintf("m%02d", i)] = nil
	}
	e := newEnvWith(t, envOptions{threshold: 2, extra: extra, log: logs})
	ctx := ctxWithin(t, 5*time.Minute)
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
	// AwaitsConsensus does less than a decision (no consensus): twice as many.
	for i := range 2 * (policy.DecideBudget/one.Work + 1) {
		e.addTimedPolicy(api.CreatePolicyParams{PolicyName: fmt.Sprint("costly ", i), Effect: api.EffectAllow,
			Condition: "activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG'", Consensus: "approvers.count() >= 2", Time: costly})
	}
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
