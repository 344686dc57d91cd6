package server

import (
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// After the service clock steps back 10 hours between two votes, the
// completing vote is dated no earlier than the first (rounds count from it),
// but the activity is not shown completed before that vote, and the
// evaluation it caused carries the instant the policies really saw.
func TestCompletingVoteAfterBackwardClockStep(t *testing.T) {
	e := newEnvWith(t, envOptions{threshold: 2})
	ctx := ctxT(t)
	e.skew.Store(int64(10 * time.Hour))
	act, err := e.skewed("alice").CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "t", UserIDs: []string{e.user("bob")}})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("submit: %v %+v", err, act)
	}
	e.skew.Store(0) // the clock steps back
	before := time.Now()
	done, err := e.skewed("bob").ApproveActivity(ctx, act.Fingerprint)
	if err != nil {
		t.Fatal(err)
	}
	after := time.Now()
	if done.Status != api.StatusCompleted {
		t.Fatalf("bob's approval: %s", done.Status)
	}
	last := done.Votes[len(done.Votes)-1]
	if last.CreatedAt.Time().After(done.UpdatedAt.Time()) {
		t.Fatalf("the vote that completed activity %s is dated %s, after the activity's completion (updatedAt %s)",
			act.ID, last.CreatedAt.Time().UTC(), done.UpdatedAt.Time().UTC())
	}
	evals, err := e.clients["bob"].GetPolicyEvaluations(ctx, act.ID)
	if err != nil {
		t.Fatal(err)
	}
	at := evals[len(evals)-1].CreatedAt.Time()
	if at.Before(before.Truncate(time.Millisecond)) || at.After(after) {
		t.Fatalf("bob's evaluation is stored at %s, but the policies ran on the service clock between %s and %s",
			at.UTC(), before.UTC(), after.UTC())
	}
}
