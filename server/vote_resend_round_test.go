package server

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// A vote request sent again byte for byte (same body, same stamp) is that
// vote again, in any round: sent just after the round it was cast in ended
// (its timestampMs still within the ±5 minute window: a client's retry, or
// anyone who saw it), it must not count as a fresh vote of the new round,
// or one signed approval would count in two rounds.
func TestVoteResentAfterItsRoundEndedIsNotANewVote(t *testing.T) {
	e := newEnvWith(t, envOptions{threshold: 3})
	ctx := ctxT(t)
	at := e.skewed
	advance := func(d time.Duration) { e.skew.Add(int64(d)) }

	act, err := at("alice").CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "replayed", UserIDs: []string{e.user("bob")}})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("submit: %v %+v", err, act)
	}
	advance(23*time.Hour + 58*time.Minute)

	// bob's approval, stamped once; the same request is sent twice.
	op, _ := api.OperationByType(api.TypeApproveActivity)
	body := e.body(api.TypeApproveActivity, map[string]any{"fingerprint": act.Fingerprint},
		map[string]any{"timestampMs": strconv.FormatInt(time.Now().Add(time.Duration(e.skew.Load())).UnixMilli(), 10)})
	hname, hvalue, err := e.keys["bob"].Stamp(body)
	if err != nil {
		t.Fatal(err)
	}
	send := func() (int, api.Activity, string) {
		req, _ := http.NewRequest("POST", e.http.URL+e.submitPath(op.Path), bytes.NewReader(body))
		req.Header.Set(hname, hvalue)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		raw, _ := io.ReadAll(resp.Body)
		var ar api.ActivityResponse
		json.Unmarshal(raw, &ar)
		return resp.StatusCode, ar.Activity, string(raw)
	}
	if st, a, raw := send(); st != 200 || a.Status != api.StatusConsensusNeeded || len(a.Votes) != 2 {
		t.Fatalf("bob's approval: %d %s", st, raw)
	}
	// Within the round, the replay is idempotent: no new vote.
	if st, a, raw := send(); st != 200 || len(a.Votes) != 2 {
		t.Fatalf("replay within the round: %d %s", st, raw)
	}

	// Round 1 (alice at T, bob at T+23h58m) ends at T+24h. Three minutes
	// later the very same request (timestamp 3 minutes old: accepted) is
	// replayed.
	advance(3 * time.Minute)
	st, a, raw := send()
	if st != 200 {
		t.Fatalf("replay after the round: %d %s", st, raw)
	}
	if len(a.Votes) != 0 {
		t.Errorf("a replay of bob's round-1 approval, signed before the round ended, was recorded as a new vote of round 2: votes %+v", a.Votes)
	}
	// carol and alice approve afresh: with bob's replayed approval that is
	// the 3 of 3 the quorum needs, though bob signed nothing in round 2.
	if _, err := at("carol").ApproveActivity(ctx, act.Fingerprint); err != nil {
		t.Fatal(err)
	}
	done, err := at("alice").ApproveActivity(ctx, act.Fingerprint)
	if err != nil {
		t.Fatal(err)
	}
	if done.Status == api.StatusCompleted {
		t.Errorf("completed by alice and carol plus bob's replayed round-1 request (votes %d)", len(done.Votes))
	}
}

// A member whose vote was recorded in round 1 resends it (the reply was lost)
// after the activity completed in round 2: the resend gets the activity, as
// a resend does (docs/local-service.md, "Replays"), not NOT_VOTABLE.
func TestVoteResentAfterALaterRoundCompletedGetsTheActivity(t *testing.T) {
	e := newEnv(t) // 2 of 3
	ctx := ctxT(t)
	at := e.skewed
	act, err := at("alice").CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "x", UserIDs: []string{e.user("bob")}})
	if err != nil {
		t.Fatal(err)
	}
	e.skew.Add(int64(23*time.Hour + 58*time.Minute))
	// bob rejects near the end of round 1 (carol could still complete it).
	op, _ := api.OperationByType(api.TypeRejectActivity)
	body := e.body(api.TypeRejectActivity, map[string]any{"fingerprint": act.Fingerprint},
		map[string]any{"timestampMs": strconv.FormatInt(time.Now().Add(time.Duration(e.skew.Load())).UnixMilli(), 10)})
	if r := e.post(e.submitPath(op.Path), body, e.keys["bob"]); r.status != 200 || r.act.Status != api.StatusConsensusNeeded {
		t.Fatalf("bob's rejection: %d %s", r.status, r.body)
	}
	e.skew.Add(int64(3 * time.Minute))
	// Round 2: alice and carol approve: completed.
	if _, err := at("alice").ApproveActivity(ctx, act.Fingerprint); err != nil {
		t.Fatal(err)
	}
	if d, err := at("carol").ApproveActivity(ctx, act.Fingerprint); err != nil || d.Status != api.StatusCompleted {
		t.Fatalf("round 2: %v %+v", err, d)
	}
	r := e.post(e.submitPath(op.Path), body, e.keys["bob"])
	if r.status != 200 {
		t.Errorf("bob's client resends its rejection (reply lost): HTTP %d %s; docs: the same user replaying gets the target activity back unchanged", r.status, r.body)
	}
}
