package cli

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
)

// A service that stops answering for a while (a poll runs into the HTTP
// client's request timeout, which matches context.DeadlineExceeded) does not
// end `activity wait --timeout 0` as if its own --timeout had passed (exit 2,
// "still … after 0s"): it says the service did not answer, asks again, and
// ends as the activity does once the service answers.
func TestActivityWaitOutlastsRequestsTheServiceDoesNotAnswer(t *testing.T) {
	const org = "01a21fb6-ea79-73f6-a3ca-8c0d3aa1626b"
	const act = "01a21fb6-ea79-73f6-a3ca-8c0d3aa16270"
	// Call 1 answers CONSENSUS_NEEDED; calls 2..silent hang past the client's
	// request timeout (more than one poll's retries); later calls answer
	// COMPLETED.
	const silent = 6
	var calls atomic.Int32
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := calls.Add(1)
		status := api.StatusConsensusNeeded
		switch {
		case n > silent:
			status = api.StatusCompleted
		case n > 1:
			select { // the client gives up first
			case <-r.Context().Done():
			case <-release:
			}
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"activity":{"id":%q,"organizationId":%q,"status":%q,"type":"ACTIVITY_TYPE_CREATE_USER_TAG","intent":{},"result":{},"votes":[],"fingerprint":"sha256:00","canApprove":false,"canReject":false,"createdAt":{"seconds":"1","nanos":"0"},"updatedAt":{"seconds":"1","nanos":"0"}}}`, act, org, status)
	}))
	defer srv.Close()
	defer close(release)

	c, out, errOut := waitEnv(t, srv.URL, org)
	shortRequests := api.WithHTTPClient(&http.Client{Timeout: 50 * time.Millisecond})
	code := exitCode(errOut, waitForActivity(context.Background(), c, []string{"--timeout", "0", act}, shortRequests))
	if code != 0 || strings.Contains(errOut.String(), "after 0s") {
		t.Fatalf("wait --timeout 0 through a silent service: exit %d\nstdout: %s\nstderr: %s", code, out.String(), errOut.String())
	}
	if !strings.Contains(errOut.String(), "the service did not answer") {
		t.Errorf("nothing said the service did not answer:\n%s", errOut.String())
	}
	if !strings.Contains(out.String(), api.StatusCompleted) {
		t.Errorf("the final state is not printed:\n%s", out.String())
	}
}

// waitEnv is a profile config for one profile p on baseURL, with its own key,
// and the proc running vigil with it.
func waitEnv(t *testing.T, baseURL, org string) (proc, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	dir := t.TempDir()
	if _, err := (keys.Store{Dir: filepath.Join(dir, "keys")}).Generate("k", keys.SchemeP256); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "config.toml")
	profile := fmt.Sprintf("[profiles.p]\nbase_url = %q\norganization_id = %q\nkey = \"k\"\nkeys_dir = %q\n", baseURL, org, filepath.Join(dir, "keys"))
	if err := os.WriteFile(cfg, []byte(profile), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	c := proc{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut, getenv: func(k string) string {
		if k == "VIGIL_CONFIG" {
			return cfg
		}
		return ""
	}}
	return c, &out, &errOut
}

// A restart of the service behind its gateway (503s for a few seconds) does
// not end `activity wait --timeout 30s` with exit 1, which says the activity
// FAILED or was REJECTED: `vigil activity wait ID || rollback` would roll
// back an activity that then COMPLETED. The wait says once that it retries,
// and ends as the activity does.
func TestActivityWaitOutlastsAGatewayOutage(t *testing.T) {
	const org = "01a21fb6-ea79-73f6-a3ca-8c0d3aa1626b"
	const act = "01a21fb6-ea79-73f6-a3ca-8c0d3aa16270"
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := calls.Add(1)
		status := api.StatusConsensusNeeded
		switch {
		case n > 6:
			status = api.StatusCompleted
		case n > 1: // calls 2..6: the service restarts behind its gateway
			http.Error(w, "upstream restarting", http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"activity":{"id":%q,"organizationId":%q,"status":%q,"type":"ACTIVITY_TYPE_CREATE_USER_TAG","intent":{},"result":{},"votes":[],"fingerprint":"sha256:00","canApprove":false,"canReject":false,"createdAt":{"seconds":"1","nanos":"0"},"updatedAt":{"seconds":"1","nanos":"0"}}}`, act, org, status)
	}))
	defer srv.Close()

	c, out, errOut := waitEnv(t, srv.URL, org)
	code := exitCode(errOut, waitForActivity(context.Background(), c, []string{"--timeout", "30s", act}))
	if code != exitOK {
		t.Fatalf("wait --timeout 30s through a 503 outage of a few seconds: exit %d while the activity then COMPLETED\nstdout: %s\nstderr: %s", code, out, errOut)
	}
	if n := strings.Count(errOut.String(), "retrying until it does or --timeout 30s passes"); n != 1 || !strings.Contains(errOut.String(), "HTTP 503") {
		t.Errorf("the outage should be said once, with its cause (said %d times):\n%s", n, errOut)
	}
	if !strings.Contains(errOut.String(), "the service answers again") {
		t.Errorf("the end of the outage is not said:\n%s", errOut)
	}
}

// Connections to the real service dropped without a reply (a service or a
// proxy restarting) for longer than one poll's retries: the wait goes on,
// and ends 0 when the activity, approved meanwhile, COMPLETED.
func TestActivityWaitOutlastsDroppedConnections(t *testing.T) {
	e := newVerbEnv(t)
	act, err := e.client("alice").CreateUserTag(context.Background(), api.CreateUserTagParams{UserTagName: "through-outage", UserIDs: []string{}})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("tag: %+v %v", act, err)
	}
	target, err := url.Parse(e.demo.URL)
	if err != nil {
		t.Fatal(err)
	}
	service := httputil.NewSingleHostReverseProxy(target)
	var polls atomic.Int32
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/query/get_activity") {
			switch n := polls.Add(1); {
			case n == 5: // meanwhile the quorum decides
				if _, err := e.client("bob").ApproveActivity(context.Background(), act.Fingerprint); err != nil {
					t.Errorf("bob approves: %v", err)
				}
				fallthrough
			case n >= 2 && n <= 5:
				conn, _, err := http.NewResponseController(w).Hijack()
				if err == nil {
					conn.Close()
				}
				return
			}
		}
		service.ServeHTTP(w, r)
	}))
	defer front.Close()

	frontConfig := e.configVia(front.URL, filepath.Join(t.TempDir(), "front.toml"))
	code, out, errOut := runVigil(t, map[string]string{"VIGIL_CONFIG": frontConfig}, "", "activity", "wait", "--timeout", "30s", act.ID)
	if code != exitOK || !strings.Contains(out, api.StatusCompleted) {
		t.Fatalf("wait through dropped connections: exit %d\nstdout: %s\nstderr: %s", code, out, errOut)
	}
	if n := strings.Count(errOut, "retrying until it does"); n != 1 {
		t.Errorf("the outage should be said once (said %d times):\n%s", n, errOut)
	}
}

// A wait the service refuses (an activity it does not know), or one
// interrupted, ends with exitWaitFailed: neither 1 (the activity FAILED or
// was REJECTED) nor 2 (--timeout passed), so that a script does not take it
// for the activity's end.
func TestActivityWaitThatFailsHasItsOwnExitStatus(t *testing.T) {
	e := newVerbEnv(t)
	const unknown = "01a21fb6-ea79-73f6-a3ca-8c0d3aa16299"
	code, out, errOut := e.run("", "activity", "wait", "--timeout", "30s", unknown)
	wantExit(t, "wait for an activity the service does not know", code, exitWaitFailed, out, errOut)
	if !strings.Contains(errOut, "HTTP 404") || !strings.Contains(errOut, "how the activity ends is not known") {
		t.Errorf("the refusal and what it means should be said:\n%s", errOut)
	}

	act, err := e.client("alice").CreateUserTag(context.Background(), api.CreateUserTagParams{UserTagName: "waited-for", UserIDs: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // Ctrl-C
	var stdout, stderr bytes.Buffer
	c := proc{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, getenv: func(k string) string {
		return map[string]string{"VIGIL_CONFIG": e.config}[k]
	}}
	code = run(ctx, c, []string{"activity", "wait", act.ID})
	wantExit(t, "wait interrupted", code, exitWaitFailed, stdout.String(), stderr.String())
	if !strings.Contains(stderr.String(), "interrupted") {
		t.Errorf("the interrupt should be said:\n%s", stderr.String())
	}
}
