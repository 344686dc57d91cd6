package screens

import (
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// The votes as a service whose clock stepped back 10h between alice's vote
// and bob's lists them, in the order they were cast: alice at T+10h, then bob
// at T. The service's round runs from alice's vote, the first cast, until
// T+34h, so at T+25h both approvals still count and a third completes a
// 3-of-3 activity. The console must not say "it still waits".
func TestCountingVotesFollowCastOrderAfterClockStepBack(t *testing.T) {
	T := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	aliceAt := T.Add(10 * time.Hour)
	act := &api.Activity{ID: "a", Status: api.StatusConsensusNeeded, Votes: []api.Vote{
		{UserID: "alice", Selection: api.VoteApproved, CreatedAt: api.NewTime(aliceAt)},
		{UserID: "bob", Selection: api.VoteApproved, CreatedAt: api.NewTime(T)},
	}}
	for _, now := range []time.Time{T.Add(time.Hour), T.Add(25 * time.Hour), aliceAt.Add(api.ApprovalLifetime - time.Second)} {
		if got := countingVotes(act, now); len(got) != 2 {
			t.Errorf("at %s the console counts %d votes; the service counts both", now, len(got))
		}
	}
	if got := countingVotes(act, aliceAt.Add(api.ApprovalLifetime)); len(got) != 0 {
		t.Errorf("after the round of alice's vote ended the console counts %d votes; the service counts none", len(got))
	}
	if got, want := roundEnds(act, T.Add(25*time.Hour)), aliceAt.Add(api.ApprovalLifetime); !got.Equal(want) {
		t.Errorf("round ends at %s; the service ends it %s, a day after the first vote cast", got, want)
	}
}
