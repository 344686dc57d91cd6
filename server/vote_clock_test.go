package server

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
)

// TestStoredEvaluationReplaysAtItsTime: the instant stored as a vote's (and
// its evaluation's) time is the instant the policies' time.now saw. The
// console and 'vigil activity evaluations' replay each stored evaluation at
// its createdAt; when a window boundary passed between two readings of the
// service's clock, the replay differed and the explanation blamed "policies
// or members changed since", which nothing had.
//
// The service's clock advances a millisecond at every reading, starting a few
// readings before the boundary, so that the boundary passes at every point
// of the request in turn.
func TestStoredEvaluationReplaysAtItsTime(t *testing.T) {
	e := newEnvWith(t, envOptions{threshold: 2})
	ctx := ctxT(t)
	boundary := time.Now().Add(time.Hour).UTC().Truncate(time.Minute)
	e.addTimedPolicy(api.CreatePolicyParams{PolicyName: "tags until the boundary", Effect: api.EffectAllow,
		Condition: "activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG'",
		Time:      "time.now < Timestamp('" + boundary.Format(time.RFC3339) + "')"})
	stampNear, err := api.NewClient(e.http.URL, e.org.ID, e.keys["alice"], api.WithClock(func() time.Time { return boundary }))
	if err != nil {
		t.Fatal(err)
	}
	users, err := stampNear.ListUsers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := stampNear.GetOrganizationConfigs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	records, err := stampNear.ListPolicies(ctx)
	if err != nil {
		t.Fatal(err)
	}
	pols, errs := policy.PoliciesOf(records)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	members := policy.Members(users, *cfg)

	for before := 1; before <= 10; before++ {
		var mu sync.Mutex
		next := boundary.Add(-time.Duration(before) * time.Millisecond)
		e.srv.now = func() time.Time {
			mu.Lock()
			defer mu.Unlock()
			t := next
			next = next.Add(time.Millisecond)
			return t
		}
		act, err := stampNear.CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: fmt.Sprintf("edge-%d", before), UserIDs: []string{}})
		if err != nil {
			t.Fatal(err)
		}
		evals, err := stampNear.GetPolicyEvaluations(ctx, act.ID)
		if err != nil || len(evals) != 1 {
			t.Fatalf("evaluations: %v %+v", err, evals)
		}
		ev := evals[0]
		// Replayed as the console's explanation does.
		in, err := policy.InputUpToVote(*act, members, ev.VoteID, ev.CreatedAt.Time())
		if err != nil {
			t.Fatal(err)
		}
		d := policy.Decide(pols, in, policy.QuorumOf(cfg.Quorum), policy.RootOnly(act.Type))
		if !slices.Equal(d.Policies, ev.PolicyEvaluations) {
			t.Errorf("boundary %d readings on: the stored evaluation (createdAt %s, activity %s) is not what the policies give at its createdAt:\nstored   %+v\nreplayed %+v (%s)",
				before, ev.CreatedAt.Time().Format(time.RFC3339Nano), act.Status, ev.PolicyEvaluations, d.Policies, d.Outcome)
		}
	}
}
