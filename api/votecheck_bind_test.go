package api_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// A proxy rewrites what the activity is (its type and intent) and leaves
// the votes as sent. The submitter's vote carries the very body that was
// submitted: it says the activity is a CREATE_USER_TAG of another name. The
// requester's vote must then FAIL, not verify under an activity shown as
// something the requester never signed.
func TestSubmissionVoteFailsUnderARewrittenActivity(t *testing.T) {
	demo := servertest.StartDemo(t)
	act := votedTag(t, demo, "audit-swap")
	opID := memberID(t, demo, "operator")
	for _, c := range []struct {
		name   string
		change func(a map[string]any)
	}{
		{"type and intent rewritten", func(a map[string]any) {
			a["type"] = api.TypeDeleteAPIKeys
			a["intent"] = map[string]any{"deleteApiKeysIntent": map[string]any{"userId": memberID(t, demo, "bob"), "apiKeyIds": []string{"k1"}}}
		}},
		{"tag renamed", func(a map[string]any) {
			a["intent"] = map[string]any{"createUserTagIntent": map[string]any{"userTagName": "admins", "userIds": []string{}}}
		}},
		{"users added to the tag", func(a map[string]any) {
			a["intent"] = map[string]any{"createUserTagIntent": map[string]any{"userTagName": "audit-swap", "userIds": []string{opID}}}
		}},
		{"submitted a day later", func(a map[string]any) {
			a["createdAt"] = api.NewTime(time.Now().Add(24 * time.Hour))
		}},
	} {
		proxy := activityRewritten(demo, c.change)
		got, err := demo.ClientAt(proxy, "alice", api.WithExactStrings()).GetActivity(context.Background(), act.ID)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		v := got.VoteOf(opID)
		var signed struct {
			Type           string `json:"type"`
			OrganizationID string `json:"organizationId"`
		}
		_ = json.Unmarshal([]byte(v.Message), &signed)
		if check := api.CheckVote(*got, *v); check.State != api.VoteFailed {
			t.Errorf("%s: activity shown as %s in %s; the submitter signed %s in %s; CheckVote = %+v",
				c.name, got.Type, got.OrganizationID, signed.Type, signed.OrganizationID, check)
		}
	}
	// As sent, the requester's vote verifies, and says the intent is the
	// one signed.
	got, err := demo.ClientAt(demo.URL, "alice", api.WithExactStrings()).GetActivity(context.Background(), act.ID)
	if err != nil {
		t.Fatal(err)
	}
	if c := api.CheckVote(*got, *got.VoteOf(opID)); c.State != api.VoteVerified || !strings.Contains(c.Reason, "intent") {
		t.Errorf("the requester's genuine vote: %+v, want verified, saying the intent shown is the one signed", c)
	}
}

// One signed approval (alice's) shown twice: as alice's vote and as bob's.
// Neither copy may verify (the vote dialog would count two approvals).
func TestOneSignatureShownAsTwoMembersVotesFails(t *testing.T) {
	demo := servertest.StartDemo(t)
	act := votedTag(t, demo, "audit-dup")
	aliceID, bobID := memberID(t, demo, "alice"), memberID(t, demo, "bob")
	proxy := activityRewritten(demo, func(a map[string]any) {
		votes := a["votes"].([]any)
		for _, v := range votes {
			if v := v.(map[string]any); v["userId"] == aliceID {
				dup := map[string]any{}
				for k, x := range v {
					dup[k] = x
				}
				dup["userId"], dup["id"], dup["user"] = bobID, "forged-vote-id", map[string]any{"userId": bobID, "userName": "bob"}
				votes = append(votes, dup)
				break
			}
		}
		a["votes"] = votes
	})
	got, err := demo.ClientAt(proxy, "carol", api.WithExactStrings()).GetActivity(context.Background(), act.ID)
	if err != nil {
		t.Fatal(err)
	}
	a, b := got.VoteOf(aliceID), got.VoteOf(bobID)
	if a == nil || b == nil {
		t.Fatalf("set-up: %+v", got.Votes)
	}
	ca, cb := api.CheckVote(*got, *a), api.CheckVote(*got, *b)
	if ca.State != api.VoteFailed || cb.State != api.VoteFailed {
		t.Errorf("one signature (key %s…) shown as both alice's and bob's vote: %+v / %+v, want both FAILED", a.PublicKey[:12], ca, cb)
	}
	all := api.CheckVotes(*got)
	for i, v := range got.Votes {
		want := api.CheckVote(*got, v)
		if all[i] != want {
			t.Errorf("CheckVotes of vote %d (%s) = %+v, CheckVote = %+v", i, v.UserID, all[i], want)
		}
	}
}

// Alice approved 25 hours ago; that round ended and the service no longer
// shows her vote. A proxy puts her real, signed approval back, dated now:
// its message's own signed timestampMs is 25 hours before the vote's
// createdAt (the service refuses any body more than 5 minutes off its
// clock), so it FAILS rather than count again in the current round.
func TestAnEarlierRoundsVoteRedatedFails(t *testing.T) {
	var off atomic.Int64
	off.Store(int64(-25 * time.Hour))
	now := func() time.Time { return time.Now().Add(time.Duration(off.Load())) }
	demo := servertest.StartDemoOn(t, now)
	ctx := context.Background()
	op := demo.ClientAt(demo.URL, "operator", api.WithClock(now))
	act, err := op.CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "audit-round", UserIDs: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := demo.ClientAt(demo.URL, "alice", api.WithClock(now)).ApproveActivity(ctx, act.Fingerprint); err != nil {
		t.Fatal(err)
	}
	old, err := demo.ClientAt(demo.URL, "carol", api.WithClock(now), api.WithExactStrings()).GetActivity(ctx, act.ID)
	if err != nil {
		t.Fatal(err)
	}
	aliceID := memberID(t, demo, "alice")
	oldVote := old.VoteOf(aliceID)
	if oldVote == nil {
		t.Fatal("set-up: no vote by alice")
	}
	off.Store(0)
	proxy := demo.Rewriting(func(opName string, request, reply []byte) []byte {
		if opName != "query/"+api.QueryGetActivity {
			return reply
		}
		var m map[string]map[string]any
		if json.Unmarshal(reply, &m) != nil {
			return reply
		}
		var v map[string]any
		b, _ := json.Marshal(oldVote)
		_ = json.Unmarshal(b, &v)
		v["createdAt"] = api.NewTime(time.Now())
		m["activity"]["votes"] = append([]any{}, v)
		out, _ := json.Marshal(m)
		return out
	})
	got, err := demo.ClientAt(proxy, "carol", api.WithExactStrings()).GetActivity(ctx, act.ID)
	if err != nil {
		t.Fatal(err)
	}
	v := got.VoteOf(aliceID)
	if v == nil {
		t.Fatalf("set-up: %+v", got.Votes)
	}
	if c := api.CheckVote(*got, *v); c.State != api.VoteFailed {
		t.Errorf("alice's approval signed 25h ago (an ended round) shown as cast now: %+v, want FAILED", c)
	}
}
