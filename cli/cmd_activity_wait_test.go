package cli

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
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

	dir := t.TempDir()
	if _, err := (keys.Store{Dir: filepath.Join(dir, "keys")}).Generate("k", keys.SchemeP256); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "config.toml")
	profile := fmt.Sprintf("[profiles.p]\nbase_url = %q\norganization_id = %q\nkey = \"k\"\nkeys_dir = %q\n", srv.URL, org, filepath.Join(dir, "keys"))
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
	shortRequests := api.WithHTTPClient(&http.Client{Timeout: 50 * time.Millisecond})
	code := exitCode(&errOut, waitForActivity(context.Background(), c, []string{"--timeout", "0", act}, shortRequests))
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
