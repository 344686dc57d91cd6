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
	"strings"
	"sync"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// staleVoteCache is a broken network element in front of the real service:
// it forwards everything, but answers a vote (approve or reject) with the
// last get_activity reply it passed on, without forwarding the vote — a
// cache answering from what it saw for that activity.
func staleVoteCache(t *testing.T, e *verbEnv) (cfg string) {
	target, _ := url.Parse(e.demo.URL)
	rp := httputil.NewSingleHostReverseProxy(target)
	var mu sync.Mutex
	var lastGet []byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/public/v1/submit/approve_activity", "/public/v1/submit/reject_activity":
			mu.Lock()
			body := lastGet
			mu.Unlock()
			w.Header().Set("Content-Type", "application/json")
			w.Write(body)
			return
		case "/public/v1/query/get_activity":
			rec := httptest.NewRecorder()
			rp.ServeHTTP(rec, r)
			b, _ := io.ReadAll(rec.Result().Body)
			mu.Lock()
			lastGet = bytes.Clone(b)
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
	return e.configVia(srv.URL, filepath.Join(t.TempDir(), "cache.toml"))
}

// A vote answered 200 with the voted activity as it stood before the vote
// (same organization and fingerprint, no vote of the voter's) is not taken
// as the vote's outcome: the activity is read again, and as it does not
// show the vote the outcome is unknown (exit 4), never success.
func TestVoteReplyWithoutMyVoteIsNotSuccess(t *testing.T) {
	e := newVerbEnv(t)
	code, out, errOut := e.run("", "tag", "create", "--name", "vote-stale")
	wantExit(t, "tag create", code, exitOK, out, errOut)
	id := activityIDFrom(t, out)
	a, err := e.client("alice").GetActivity(context.Background(), id)
	if err != nil || api.IsTerminal(a.Status) {
		t.Fatalf("want an open activity: %v %+v", err, a)
	}
	cfg := staleVoteCache(t, e)
	code, out, errOut = runVigil(t, map[string]string{"VIGIL_CONFIG": cfg}, "", "activity", "approve", "--yes", "--profile", "bob", id)
	after, err := e.client("alice").GetActivity(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if after.VoteOf(e.userID("bob")) != nil {
		t.Fatalf("the cache forwarded the vote: %+v", after)
	}
	if code != exitOutcomeUnknown {
		t.Fatalf("bob's approval was never recorded (activity still %s), yet 'activity approve' exited %d, want %d:\nstdout:\n%s\nstderr:\n%s", after.Status, code, exitOutcomeUnknown, out, errOut)
	}
	if !strings.Contains(errOut, "does not show your vote") {
		t.Errorf("standard error does not say the vote is not shown:\n%s", errOut)
	}
}
