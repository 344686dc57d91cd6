package cli

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// whoami answers garbage until the vote is sent (a blip); every other request,
// the vote included, reaches the service and its reply shows bob's approval.
// The vote counted and its reply showed it: nothing answered for the
// service. 'activity approve' told bob "the reply does not show your vote (a
// cache or proxy may have answered for the service)" — a false accusation of
// the connection, on the security-relevant path, when only who bob is could
// not be read at the time. The vote is told by the key that signed it, which
// needs no whoami: it counted (exit 0), and no cache is blamed.
func TestVoteWhoamiBlipIsNotBlamedOnACache(t *testing.T) {
	e := newVerbEnv(t)
	id := openTag(t, e, "whoami-blip")
	target, _ := url.Parse(e.demo.URL)
	rp := httputil.NewSingleHostReverseProxy(target)
	var voted atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/public/v1/submit/approve_activity" {
			voted.Store(true)
		}
		if r.URL.Path == "/public/v1/query/whoami" && !voted.Load() {
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte("not json"))
			return
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	cfg := e.configVia(srv.URL, filepath.Join(t.TempDir(), "blip.toml"))
	code, out, errOut := runVigil(t, map[string]string{"VIGIL_CONFIG": cfg}, "", "activity", "approve", "--yes", "--profile", "bob", id)
	after, err := e.client("alice").GetActivity(context.Background(), id)
	if err != nil || after.VoteOf(e.userID("bob")) == nil {
		t.Fatalf("bob's vote did not reach the service: %v %+v", err, after)
	}
	if strings.Contains(errOut, "cache or proxy") {
		t.Errorf("the reply showed bob's vote and no cache answered; only whoami failed once, yet the CLI says:\n%s", errOut)
	}
	wantExit(t, "activity approve, whoami failing before the vote", code, exitOK, out, errOut)
}
