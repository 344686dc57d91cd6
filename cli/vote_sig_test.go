package cli

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server"
)

// copyingVoteGateway passes everything to the service except votes, which it
// never forwards and answers with reply().
func copyingVoteGateway(t *testing.T, e *verbEnv, reply func() []byte) string {
	target, _ := url.Parse(e.demo.URL)
	rp := httputil.NewSingleHostReverseProxy(target)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/public/v1/submit/approve_activity", "/public/v1/submit/reject_activity":
			w.Header().Set("Content-Type", "application/json")
			w.Write(reply())
			return
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return e.configVia(srv.URL, filepath.Join(t.TempDir(), "gateway.toml"))
}

func rawActivity(t *testing.T, c *api.Client, id string) map[string]any {
	raw, err := c.QueryRaw(context.Background(), api.QueryGetActivity, api.GetActivityRequest{OrganizationID: c.OrganizationID(), ActivityID: id})
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// A cache answers bob's approval of activity A (never forwarded) with A as
// the service shows it, plus bob's vote copied from another activity B's
// reply (its activityId is B's, its signature over B's fingerprint). The
// vote never reached the service, yet 'activity approve' must not exit 0.
func TestVoteSigVoteFromAnotherActivityIsNotSuccess(t *testing.T) {
	e := newVerbEnv(t)
	alice := e.client("alice")
	idB := openTag(t, e, "sig-b")
	bobsVoteOnB := bobApproves(t, e, alice, idB)
	idA := openTag(t, e, "sig-a")
	cfg := copyingVoteGateway(t, e, func() []byte {
		m := rawActivity(t, alice, idA)
		act := m["activity"].(map[string]any)
		act["votes"] = append(act["votes"].([]any), bobsVoteOnB)
		b, _ := json.Marshal(m)
		return b
	})
	code, out, errOut := runVigil(t, map[string]string{"VIGIL_CONFIG": cfg}, "", "activity", "approve", "--yes", "--profile", "bob", idA)
	after, err := alice.GetActivity(context.Background(), idA)
	if err != nil {
		t.Fatal(err)
	}
	if after.VoteOf(e.userID("bob")) != nil {
		t.Fatalf("set-up: the vote reached the service")
	}
	if code == exitOK {
		t.Fatalf("bob's approval of %s never reached the service (it is %s), yet 'activity approve' exited 0 (counted) on a vote whose activityId is %s:\nstdout:\n%s\nstderr:\n%s",
			idA, after.Status, idB, out, errOut)
	}
}

// Round 1 (25 hours ago): alice requests, bob rejects; the round ends, the
// service offers bob a vote again. A cache answers bob's new rejection
// (never forwarded) with the reply it kept from his round-1 rejection of
// the same activity. The vote never reached the service, yet 'activity
// reject' must not exit 0.
func TestVoteSigReplayedEarlierRoundVoteIsNotSuccess(t *testing.T) {
	e, alice, id, kept := bobRejectedLastRound(t, "sig-round")
	ctx := context.Background()
	cur, err := alice.GetActivity(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if api.IsTerminal(cur.Status) || cur.VoteOf(e.userID("bob")) != nil {
		t.Fatalf("set-up: want an open activity whose round ended: %+v", cur)
	}
	cfg := copyingVoteGateway(t, e, func() []byte { return kept })
	code, out, errOut := runVigil(t, map[string]string{"VIGIL_CONFIG": cfg}, "", "activity", "reject", "--yes", "--profile", "bob", id)
	after, err := alice.GetActivity(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if after.VoteOf(e.userID("bob")) != nil {
		t.Fatalf("set-up: the vote reached the service")
	}
	if code == exitOK {
		t.Fatalf("bob's rejection in this round never reached the service (activity %s, no vote of his), yet 'activity reject' exited 0 on the replayed round-1 reply:\nstdout:\n%s\nstderr:\n%s", after.Status, out, errOut)
	}
}

// Round 1 (25 hours ago): alice requests, bob rejects; the round ends. Bob
// now approves: the gateway forwards it (it counts) but answers 502, and
// answers the read after the vote with its copy from round 1. The approval
// counted, yet the CLI must not say it failed (exit 1, "a vote cannot be
// changed").
func TestVoteSigCountedVoteToldFailedByEarlierRound(t *testing.T) {
	e, alice, id, kept := bobRejectedLastRound(t, "sig-round2")
	ctx := context.Background()
	target, _ := url.Parse(e.demo.URL)
	rp := httputil.NewSingleHostReverseProxy(target)
	var voted atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/public/v1/submit/approve_activity":
			rp.ServeHTTP(httptest.NewRecorder(), r)
			voted.Store(true)
			w.WriteHeader(http.StatusBadGateway)
			w.Write([]byte(`{"message":"bad gateway"}`))
			return
		case "/public/v1/query/get_activity":
			if voted.Load() {
				w.Header().Set("Content-Type", "application/json")
				w.Write(kept)
				return
			}
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	cfg := e.configVia(srv.URL, filepath.Join(t.TempDir(), "gateway.toml"))
	code, out, errOut := runVigil(t, map[string]string{"VIGIL_CONFIG": cfg}, "", "activity", "approve", "--yes", "--profile", "bob", id)
	after, err := alice.GetActivity(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if v := after.VoteOf(e.userID("bob")); v == nil || v.Selection != api.VoteApproved {
		t.Fatalf("set-up: bob's approval did not reach the service: %+v", after.Votes)
	}
	if code == exitFailure {
		t.Fatalf("bob's approval counted (activity %s), yet 'activity approve' exited 1:\nstdout:\n%s\nstderr:\n%s", after.Status, out, errOut)
	}
}

// As TestVoteSigVoteFromAnotherActivityIsNotSuccess, for a vote sent with
// 'vigil request': bob's vote copied from B's reply into A's is not his vote
// on A, so the outcome is unknown (exit 4), not success.
func TestVoteSigRequestVoteFromAnotherActivityIsNotSuccess(t *testing.T) {
	e := newVerbEnv(t)
	alice := e.client("alice")
	idB := openTag(t, e, "sig-req-b")
	bobsVoteOnB := bobApproves(t, e, alice, idB)
	idA := openTag(t, e, "sig-req-a")
	a, err := alice.GetActivity(context.Background(), idA)
	if err != nil {
		t.Fatal(err)
	}
	cfg := copyingVoteGateway(t, e, func() []byte {
		m := rawActivity(t, alice, idA)
		act := m["activity"].(map[string]any)
		act["votes"] = append(act["votes"].([]any), bobsVoteOnB)
		b, _ := json.Marshal(m)
		return b
	})
	code, out, errOut := sendVoteRequest(t, e, cfg, a.Fingerprint)
	after, err := alice.GetActivity(context.Background(), idA)
	if err != nil {
		t.Fatal(err)
	}
	if after.VoteOf(e.userID("bob")) != nil {
		t.Fatalf("set-up: the vote reached the service")
	}
	if code != exitOutcomeUnknown {
		t.Fatalf("bob's approval of %s never reached the service, yet 'request' exited %d (want %d) on a vote copied from %s:\nstdout:\n%s\nstderr:\n%s",
			idA, code, exitOutcomeUnknown, idB, out, errOut)
	}
}

// bobApproves has bob approve activity id through 'activity approve' and
// returns his vote as the service shows it (read by reader), raw.
func bobApproves(t *testing.T, e *verbEnv, reader *api.Client, id string) any {
	t.Helper()
	code, out, errOut := e.run("", "activity", "approve", "--yes", "--profile", "bob", id)
	wantExit(t, "approve "+id, code, exitOK, out, errOut)
	for _, v := range rawActivity(t, reader, id)["activity"].(map[string]any)["votes"].([]any) {
		if v.(map[string]any)["userId"] == e.userID("bob") {
			return v
		}
	}
	t.Fatal("set-up: no vote by bob on " + id)
	return nil
}

// bobRejectedLastRound opens a user tag named tag 25 hours ago, has bob
// reject it then, and moves the service's clock to now, past that 24-hour
// round. It returns alice's client (on the service's clock), the activity's
// id and its round-1 reply as a cache would have kept it.
func bobRejectedLastRound(t *testing.T, tag string) (e *verbEnv, alice *api.Client, id string, kept []byte) {
	t.Helper()
	var off atomic.Int64
	off.Store(int64(-25 * time.Hour))
	now := func() time.Time { return time.Now().Add(time.Duration(off.Load())) }
	e = newVerbEnvWith(t, server.Config{Now: now})
	ctx := context.Background()
	alice = e.demo.ClientAt(e.demo.URL, "alice", api.WithClock(now))
	bob := e.demo.ClientAt(e.demo.URL, "bob", api.WithClock(now))
	a, err := alice.CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: tag, UserIDs: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	id = a.ID
	if a, err = alice.GetActivity(ctx, id); err != nil {
		t.Fatal(err)
	}
	if _, err := bob.RejectActivity(ctx, a.Fingerprint); err != nil {
		t.Fatal(err)
	}
	if kept, err = json.Marshal(rawActivity(t, alice, id)); err != nil {
		t.Fatal(err)
	}
	off.Store(0)
	return e, alice, id, kept
}
