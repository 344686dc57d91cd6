package server

import (
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// A vote that does not change an activity's status still changes the record
// (its votes): its updatedAt becomes the vote's time, in the vote's reply, in
// get_activity and in list_activities (whose caches key a row by updated_ns
// and status). And it never goes back, even when the service's clock steps
// back before the next vote.
func TestVoteWithoutStatusChangeSetsUpdatedAt(t *testing.T) {
	e := newEnvWith(t, envOptions{threshold: 3})
	ctx := ctxT(t)
	act, err := e.skewed("alice").CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "t", UserIDs: []string{e.user("bob")}})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("submit: %v %+v", err, act)
	}
	// Read it as the console does, so the list's caches hold this version.
	e.views(t, act.ID)

	// An hour later bob approves: the second of three, no status change.
	e.skew.Store(int64(time.Hour))
	voted, err := e.skewed("bob").ApproveActivity(ctx, act.Fingerprint)
	if err != nil {
		t.Fatal(err)
	}
	if voted.Status != api.StatusConsensusNeeded || len(voted.Votes) != 2 {
		t.Fatalf("bob's approval, the second of three: %s with %d votes", voted.Status, len(voted.Votes))
	}
	bobVote := voted.Votes[1].CreatedAt.Time()
	if !bobVote.After(act.UpdatedAt.Time()) {
		t.Fatalf("set-up: bob's vote at %s, not after the submit's %s", bobVote, act.UpdatedAt.Time())
	}
	got, listed := e.views(t, act.ID)
	for what, a := range map[string]*api.Activity{"approve reply": voted, "get_activity": got, "list_activities": listed} {
		if upd := a.UpdatedAt.Time(); !upd.Equal(bobVote) || len(a.Votes) != 2 {
			t.Errorf("%s: updatedAt %s with %d votes, want the time of bob's vote %s (submitted at %s) with 2", what, upd, len(a.Votes), bobVote, act.UpdatedAt.Time())
		}
	}

	// A new round 30 hours on (bob's approval expired): alice approves; then
	// the clock steps back 5 hours and bob approves again.
	e.skew.Store(int64(30 * time.Hour))
	again, err := e.skewed("alice").ApproveActivity(ctx, act.Fingerprint)
	if err != nil || again.Status != api.StatusConsensusNeeded {
		t.Fatalf("alice's approval in a new round: %v %+v", err, again)
	}
	before := again.UpdatedAt.Time()
	if !before.After(bobVote) {
		t.Errorf("alice's vote in the new round: updatedAt %s, not after bob's earlier vote %s", before, bobVote)
	}
	e.skew.Store(int64(25 * time.Hour))
	back, err := e.skewed("bob").ApproveActivity(ctx, act.Fingerprint)
	if err != nil || back.Status != api.StatusConsensusNeeded {
		t.Fatalf("bob's approval after the clock stepped back: %v %+v", err, back)
	}
	got, listed = e.views(t, act.ID)
	for what, a := range map[string]*api.Activity{"approve reply": back, "get_activity": got, "list_activities": listed} {
		if upd := a.UpdatedAt.Time(); upd.Before(before) {
			t.Errorf("%s after the clock stepped back: updatedAt %s went back from %s", what, upd, before)
		}
	}
}

// views is the activity as carol's get_activity and list_activities show it.
func (e *testEnv) views(t *testing.T, id string) (got, listed *api.Activity) {
	t.Helper()
	ctx := ctxT(t)
	got, err := e.skewed("carol").GetActivity(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	list, err := e.skewed("carol").ListActivities(ctx, api.ListActivitiesOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range list {
		if list[i].ID == id {
			return got, &list[i]
		}
	}
	t.Fatalf("activity %s not listed", id)
	return nil, nil
}
