package cli

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"path/filepath"
	"sync"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// voteGateway is a network element in front of the real service that
// answers every vote with the last get_activity reply it passed on (a copy
// from before the vote), forwarding the vote first when forward is set;
// whoami, when not nil, answers whoami requests instead of the service
// (voted: whether a vote has passed by).
func voteGateway(t *testing.T, e *verbEnv, forward bool, whoami func(voted bool) (status int, body []byte)) (cfg string) {
	target, _ := url.Parse(e.demo.URL)
	rp := httputil.NewSingleHostReverseProxy(target)
	var mu sync.Mutex
	var lastGet []byte
	voted := false
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/public/v1/submit/approve_activity", "/public/v1/submit/reject_activity":
			mu.Lock()
			body := lastGet
			voted = true
			mu.Unlock()
			if forward {
				rec := httptest.NewRecorder()
				rp.ServeHTTP(rec, r)
			}
			w.Header().Set("Content-Type", "application/json")
			w.Write(body)
			return
		case "/public/v1/query/whoami":
			if whoami != nil {
				mu.Lock()
				v := voted
				mu.Unlock()
				if status, body := whoami(v); body != nil {
					w.Header().Set("Content-Type", "application/json")
					w.WriteHeader(status)
					w.Write(body)
					return
				}
			}
		case "/public/v1/query/get_activity":
			rec := httptest.NewRecorder()
			rp.ServeHTTP(rec, r)
			b, _ := io.ReadAll(rec.Result().Body)
			mu.Lock()
			if !voted {
				lastGet = bytes.Clone(b)
			}
			mu.Unlock()
			for k, v := range rec.Header() {
				w.Header()[k] = v
			}
			w.WriteHeader(rec.Code)
			w.Write(b)
			return
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return e.configVia(srv.URL, filepath.Join(t.TempDir(), "gateway.toml"))
}

// openTag has alice request a tag, open for votes, and returns its id.
func openTag(t *testing.T, e *verbEnv, name string) string {
	t.Helper()
	code, out, errOut := e.run("", "tag", "create", "--name", name)
	wantExit(t, "tag create", code, exitOK, out, errOut)
	id := activityIDFrom(t, out)
	a, err := e.client("alice").GetActivity(context.Background(), id)
	if err != nil || api.IsTerminal(a.Status) || a.VoteOf(e.userID("alice")) == nil {
		t.Fatalf("want an open activity with alice's approval: %v %+v", err, a)
	}
	return id
}

// A cache answers bob's whoami with alice's (the requester's) reply, and
// his vote with the activity as it was before the vote, which holds her
// approval. Her approval is not bob's vote: the service never saw it, and
// 'activity approve' must not exit 0.
func TestStaleVoteWithWhoamiOfRequesterIsNotSuccess(t *testing.T) {
	e := newVerbEnv(t)
	id := openTag(t, e, "vote-whoami-alice")
	alice := e.client("alice")
	aliceWho, err := alice.QueryRaw(context.Background(), api.QueryWhoami, api.WhoamiRequest{OrganizationID: alice.OrganizationID()})
	if err != nil {
		t.Fatal(err)
	}
	cfg := voteGateway(t, e, false, func(bool) (int, []byte) { return http.StatusOK, aliceWho })
	code, out, errOut := runVigil(t, map[string]string{"VIGIL_CONFIG": cfg}, "", "activity", "approve", "--yes", "--profile", "bob", id)
	after, err := alice.GetActivity(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if after.VoteOf(e.userID("bob")) != nil {
		t.Fatalf("the cache forwarded the vote: %+v", after)
	}
	if code != exitOutcomeUnknown {
		t.Fatalf("bob's approval was never recorded (activity still %s), yet 'activity approve' exited %d, want %d:\nstdout:\n%s\nstderr:\n%s",
			after.Status, code, exitOutcomeUnknown, out, errOut)
	}
}

// A vote that counted, answered with a copy from before it, is settled by
// reading the activity again. When whoami fails after the vote, the voter
// read before it is the one looked for: the vote is found (exit 0), not
// left unknown.
func TestCountedVoteIsFoundWhenWhoamiFailsAfterIt(t *testing.T) {
	e := newVerbEnv(t)
	id := openTag(t, e, "vote-whoami-gone")
	cfg := voteGateway(t, e, true, func(voted bool) (int, []byte) {
		if voted {
			return http.StatusBadGateway, []byte(`{"message":"bad gateway"}`)
		}
		return 0, nil
	})
	code, out, errOut := runVigil(t, map[string]string{"VIGIL_CONFIG": cfg}, "", "activity", "approve", "--yes", "--profile", "bob", id)
	after, err := e.client("alice").GetActivity(context.Background(), id)
	if err != nil || after.VoteOf(e.userID("bob")) == nil {
		t.Fatalf("bob's vote did not reach the service: %v %+v", err, after)
	}
	wantExit(t, "activity approve, whoami failing after the vote", code, exitOK, out, errOut)
}
