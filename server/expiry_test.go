package server

import (
	"errors"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// TestApprovalsExpireAfter24Hours moves the injected clock (the server's and the
// clients', so stamps stay fresh) past an activity's first vote.
func TestApprovalsExpireAfter24Hours(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	at := e.skewed
	advance := func(d time.Duration) { e.skew.Add(int64(d)) }

	// Within 24 hours the requester's approval still counts: bob completes it.
	early, err := at("alice").CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "early", UserIDs: []string{e.user("bob")}})
	if err != nil || early.Status != api.StatusConsensusNeeded {
		t.Fatalf("submit: %v %+v", err, early)
	}
	late, err := at("alice").CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "late", UserIDs: []string{e.user("bob")}})
	if err != nil {
		t.Fatal(err)
	}
	advance(23*time.Hour + 59*time.Minute)
	if done, err := at("bob").ApproveActivity(ctx, early.Fingerprint); err != nil || done.Status != api.StatusCompleted {
		t.Fatalf("approval at 23h59m: %v %+v", err, done)
	}

	// Past 24 hours alice's approval of the other one has expired: it still
	// waits for consensus, shows no votes, and alice may vote again.
	advance(2 * time.Minute)
	got, err := at("alice").GetActivity(ctx, late.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != api.StatusConsensusNeeded || len(got.Votes) != 0 || !got.CanApprove || !got.CanReject {
		t.Fatalf("after 24h: status %s, %d votes, canApprove %v canReject %v", got.Status, len(got.Votes), got.CanApprove, got.CanReject)
	}
	afterBob, err := at("bob").ApproveActivity(ctx, late.Fingerprint)
	if err != nil {
		t.Fatal(err)
	}
	if afterBob.Status != api.StatusConsensusNeeded || len(afterBob.Votes) != 1 || afterBob.Votes[0].UserID != e.user("bob") {
		t.Fatalf("bob's approval alone completed it or kept the expired vote: %s %+v", afterBob.Status, afterBob.Votes)
	}
	// The new round runs from bob's vote: alice's fresh approval completes it.
	advance(time.Hour)
	done, err := at("alice").ApproveActivity(ctx, late.Fingerprint)
	if err != nil || done.Status != api.StatusCompleted || len(done.Votes) != 2 {
		t.Fatalf("alice's second approval: %v %+v", err, done)
	}
	// Voting twice within one round is still refused.
	again, err := at("carol").CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "twice", UserIDs: []string{e.user("bob")}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := at("carol").ApproveActivity(ctx, again.Fingerprint); !isConflict(err) {
		t.Fatalf("second approval in one round: %v, want a conflict", err)
	}
}

func TestCurrentVotesRounds(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	v := func(h time.Duration) voteRow { return voteRow{created: t0.Add(h)} }
	votes := []voteRow{v(0), v(5 * time.Hour), v(30 * time.Hour), v(40 * time.Hour), v(54 * time.Hour)}
	// Rounds: [0h, 5h], [30h, 40h], [54h]: 54h is exactly 24h after 30h.
	if got := currentVotes(votes, t0.Add(55*time.Hour), true); len(got) != 1 || !got[0].created.Equal(t0.Add(54*time.Hour)) {
		t.Fatalf("current votes = %v", got)
	}
	if got := currentVotes(votes[:4], t0.Add(53*time.Hour), true); len(got) != 2 {
		t.Fatalf("second round = %d votes, want 2", len(got))
	}
	if got := currentVotes(votes[:4], t0.Add(54*time.Hour), true); len(got) != 0 {
		t.Fatalf("expired round of a waiting activity = %d votes, want 0", len(got))
	}
	if got := currentVotes(votes[:4], t0.Add(54*time.Hour), false); len(got) != 2 {
		t.Fatalf("a decided activity keeps the deciding round: %d votes", len(got))
	}
}

func isConflict(err error) bool { return errors.Is(err, api.ErrAlreadyExists) }
