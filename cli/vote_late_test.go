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
	"testing"
)

// A gateway whose upstream timeout is shorter than the service's handling
// answers 504 while the vote is still on its way to the service. The read
// that follows shows no vote yet, which proves nothing: the outcome is
// unknown (exit 4, "it may still arrive"), not "nothing recorded" (exit 1).
// Here the vote is held until the CLI has ended, then lands.
func TestVoteLostReplyNoVoteYetIsOutcomeUnknown(t *testing.T) {
	e := newVerbEnv(t)
	code, out, errOut := e.run("", "tag", "create", "--name", "vote-late")
	wantExit(t, "tag create", code, exitOK, out, errOut)
	id := activityIDFrom(t, out)

	target, _ := url.Parse(e.demo.URL)
	rp := httputil.NewSingleHostReverseProxy(target)
	held := make(chan *http.Request, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/public/v1/submit/approve_activity" {
			rp.ServeHTTP(w, r)
			return
		}
		body, _ := io.ReadAll(r.Body)
		req, _ := http.NewRequest("POST", e.demo.URL+r.URL.Path, bytes.NewReader(body))
		req.Header = r.Header.Clone()
		select {
		case held <- req: // the upstream leg, sent after the gateway gave up
		default:
		}
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusGatewayTimeout)
		io.WriteString(w, "<html>504 Gateway Time-out</html>")
	}))
	t.Cleanup(srv.Close)
	cfg := e.configVia(srv.URL, filepath.Join(t.TempDir(), "gw.toml"))

	code, out, errOut = runVigil(t, map[string]string{"VIGIL_CONFIG": cfg}, "", "activity", "approve", "--yes", "--profile", "bob", id)
	if code != exitOutcomeUnknown {
		t.Errorf("after a 504 and a read showing no vote yet, 'activity approve' exited %d, want %d (outcome unknown):\nstdout:\n%s\nstderr:\n%s",
			code, exitOutcomeUnknown, out, errOut)
	}
	for _, want := range []string{"does not show your vote yet", "may still arrive", "voting again is safe"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("standard error does not say %q:\n%s", want, errOut)
		}
	}
	// The vote in flight lands: it was not "nothing recorded".
	req := <-held
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	after, err := e.client("alice").GetActivity(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if after.VoteOf(e.userID("bob")) == nil {
		t.Fatalf("the held vote did not land (HTTP %d): %+v", resp.StatusCode, after)
	}
}
