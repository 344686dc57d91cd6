package server

import (
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// The service's clock steps back 10 hours between two votes (an RTC read as
// local time, then corrected). The votes' recorded times must not go
// backwards, so a client ordering them by time sees the rounds the service
// counts; and the round still runs from the first vote cast: at +25h both
// approvals count, and a third completes a 3-of-3 activity.
func TestVoteTimesNeverGoBackAfterClockStepsBack(t *testing.T) {
	e := newEnvWith(t, envOptions{threshold: 3})
	ctx := ctxT(t)
	e.skew.Store(int64(10 * time.Hour))
	act, err := e.skewed("alice").CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "t", UserIDs: []string{e.user("bob")}})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("submit: %v %+v", err, act)
	}
	e.skew.Store(0)
	voted, err := e.skewed("bob").ApproveActivity(ctx, act.Fingerprint)
	if err != nil {
		t.Fatal(err)
	}
	if len(voted.Votes) != 2 {
		t.Fatalf("after bob's approval the service shows %d votes, want alice's and bob's", len(voted.Votes))
	}
	alice, bob := voted.Votes[0], voted.Votes[1]
	if alice.UserID != e.user("alice") || bob.UserID != e.user("bob") {
		t.Fatalf("votes not in the order cast: %s then %s", alice.UserID, bob.UserID)
	}
	if bob.CreatedAt.Time().Before(alice.CreatedAt.Time()) {
		t.Errorf("bob's vote (cast second) is recorded at %s, before alice's at %s", bob.CreatedAt.Time(), alice.CreatedAt.Time())
	}

	e.skew.Store(int64(25 * time.Hour))
	got, err := e.skewed("carol").GetActivity(ctx, act.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Votes) != 2 {
		t.Fatalf("at +25h the service counts %d votes, want 2 (the round runs from alice's vote at +10h)", len(got.Votes))
	}
	done, err := e.skewed("carol").ApproveActivity(ctx, act.Fingerprint)
	if err != nil {
		t.Fatal(err)
	}
	if done.Status != api.StatusCompleted {
		t.Errorf("carol's approval, the third in the round: %s, want %s", done.Status, api.StatusCompleted)
	}
}
