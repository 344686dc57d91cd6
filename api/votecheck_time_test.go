package api_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server"
	"github.com/vigil-console/vigil/server/servertest"
)

// The service's clock ran an hour ahead while the operator submitted a tag,
// and was set back before alice approved it. The service dates alice's vote
// with the vote before it (docs/local-service.md), an hour after the
// approval she signed: her honest vote is verified, its reason saying so.
// Dated earlier than signed, or later but not with the vote before it, the
// same vote fails.
func TestHonestVoteDatedWithThePreviousVoteAfterAClockStep(t *testing.T) {
	var mu sync.Mutex
	now := time.Now().Add(time.Hour)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	demo := servertest.StartDemoWith(t, server.Config{Now: clock})
	ctx := context.Background()
	act, err := demo.ClientAt(demo.URL, "operator", api.WithClock(clock)).CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "clock-step", UserIDs: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	now = time.Now() // the clock set back an hour
	mu.Unlock()
	if _, err := demo.ClientAt(demo.URL, "alice", api.WithClock(clock)).ApproveActivity(ctx, act.Fingerprint); err != nil {
		t.Fatal(err)
	}
	got, err := demo.ClientAt(demo.URL, "alice", api.WithExactStrings(), api.WithClock(clock)).GetActivity(ctx, act.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Votes) != 2 || got.Votes[1].CreatedAt != got.Votes[0].CreatedAt {
		t.Fatalf("set-up: want alice's vote dated with the requester's, got %+v", got.Votes)
	}
	for i, c := range api.CheckVotes(*got) {
		if c.State != api.VoteVerified {
			t.Errorf("honest vote %d (%s, created %s) = %+v, want verified", i, got.Votes[i].UserID, got.Votes[i].CreatedAt.Time().UTC(), c)
		}
	}
	if c := api.CheckVote(*got, got.Votes[1]); c.State != api.VoteVerified || !strings.Contains(c.Reason, "dated") || !strings.Contains(c.Reason, "vote before it") {
		t.Errorf("CheckVote of alice's vote = %+v, want verified, saying it was dated with the vote before it", c)
	}

	var msg struct {
		TimestampMs string `json:"timestampMs"`
	}
	if err := json.Unmarshal([]byte(got.Votes[1].Message), &msg); err != nil {
		t.Fatal(err)
	}
	ms, err := api.ParseDecimal(msg.TimestampMs)
	if err != nil {
		t.Fatal(err)
	}
	signed := time.UnixMilli(ms)
	for name, votes := range map[string][2]api.Time{
		"later, not with the vote before it":           {got.Votes[0].CreatedAt, api.NewTime(got.Votes[0].CreatedAt.Time().Add(time.Second))},
		"earlier than signed, with the vote before it": {api.NewTime(signed.Add(-time.Hour)), api.NewTime(signed.Add(-time.Hour))},
	} {
		a := *got
		a.Votes = append([]api.Vote(nil), got.Votes...)
		a.Votes[0].CreatedAt, a.Votes[1].CreatedAt = votes[0], votes[1]
		if c := api.CheckVotes(a)[1]; c.State != api.VoteFailed {
			t.Errorf("alice's vote dated %s: CheckVotes = %+v, want FAILED", name, c)
		}
		if c := api.CheckVote(a, a.Votes[1]); c.State != api.VoteFailed {
			t.Errorf("alice's vote dated %s: CheckVote = %+v, want FAILED", name, c)
		}
	}
}
