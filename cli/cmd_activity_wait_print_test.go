package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

const (
	endedOrg = "01a21fb6-ea79-73f6-a3ca-8c0d3aa1626b"
	endedAct = "01a21fb6-ea79-73f6-a3ca-8c0d3aa16270"
)

// writeEnded answers get_activity with activity endedAct in status.
func writeEnded(w http.ResponseWriter, status string) {
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"activity":{"id":%q,"organizationId":%q,"status":%q,"type":"ACTIVITY_TYPE_CREATE_USER_TAG","intent":{},"result":{},"votes":[],"fingerprint":"sha256:00","canApprove":false,"canReject":false,"createdAt":{"seconds":"1","nanos":"0"},"updatedAt":{"seconds":"1","nanos":"0"}}}`, endedAct, endedOrg, status)
}

// endedThenRefused is a service that answers the first read with activity
// endedAct in status and refuses every later one (a gateway's 403).
func endedThenRefused(t *testing.T, status string) *httptest.Server {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) > 1 {
			http.Error(w, "forbidden", http.StatusForbidden)
			return
		}
		writeEnded(w, status)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// The activity COMPLETED; the service then restarts (a few 503s) just as
// `activity wait` reads the final state to print it. The wait goes on while
// the service does not answer, prints the final state, and exits 0 for
// COMPLETED, not 3 ("how the activity ends is not known").
func TestActivityWaitOutlastsAnOutageWhileReadingTheEndedActivity(t *testing.T) {
	org, act := endedOrg, endedAct
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := calls.Add(1)
		if n >= 2 && n <= 4 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		writeEnded(w, api.StatusCompleted)
	}))
	defer srv.Close()
	c, out, errOut := waitEnv(t, srv.URL, org)
	retries := api.WithRetryPolicy(1, time.Millisecond, time.Millisecond)
	code := exitCode(errOut, waitForActivity(context.Background(), c, []string{"--timeout", "1m", act}, retries))
	if code != 0 {
		t.Fatalf("activity COMPLETED, service briefly 503 while reading it to print: exit %d\nstdout: %s\nstderr: %s", code, out.String(), errOut.String())
	}
	if !strings.Contains(out.String(), act) {
		t.Errorf("the ended activity's final state is not printed:\nstdout: %s\nstderr: %s", out.String(), errOut.String())
	}
}

// The activity FAILED, and the service then refuses to read it again (a
// gateway's 403): the end was seen, so the exit status is still FAILED's
// (1), not 3, and standard error says why nothing is printed.
func TestActivityWaitExitsByTheEndItSawWhenTheFinalReadIsRefused(t *testing.T) {
	org, act := endedOrg, endedAct
	srv := endedThenRefused(t, api.StatusFailed)
	c, out, errOut := waitEnv(t, srv.URL, org)
	code := exitCode(errOut, waitForActivity(context.Background(), c, []string{"--timeout", "1m", act}))
	if code != exitFailure {
		t.Fatalf("activity FAILED, its final read refused: exit %d, want %d\nstdout: %s\nstderr: %s", code, exitFailure, out.String(), errOut.String())
	}
	if e := errOut.String(); !strings.Contains(e, "FAILED") || !strings.Contains(e, "not printed") || !strings.Contains(e, "vigil activity get") {
		t.Errorf("standard error does not say the activity FAILED and how to see it:\n%s", e)
	}
}

// With --json, the activity REJECTED and its final read then refused: a
// script parsing standard output still gets one JSON record, the copy the
// poll saw end (its id and status), and standard error says it is that copy
// and not a final read. The exit status is still the end's (1).
func TestActivityWaitJSONPrintsTheCopySeenEndingWhenTheFinalReadIsRefused(t *testing.T) {
	org, act := endedOrg, endedAct
	srv := endedThenRefused(t, api.StatusRejected)
	c, out, errOut := waitEnv(t, srv.URL, org)
	code := exitCode(errOut, waitForActivity(context.Background(), c, []string{"--json", "--timeout", "1m", act}))
	if code != exitFailure {
		t.Fatalf("activity REJECTED, its final read refused: exit %d, want %d\nstdout: %s\nstderr: %s", code, exitFailure, out.String(), errOut.String())
	}
	var got api.ActivityResponse
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("standard output is not one JSON record (%v):\n%s\nstderr: %s", err, out.String(), errOut.String())
	}
	if got.Activity.ID != act || got.Activity.Status != api.StatusRejected {
		t.Errorf("printed activity %q %q, want the copy seen ending: %q %q", got.Activity.ID, got.Activity.Status, act, api.StatusRejected)
	}
	if e := errOut.String(); !strings.Contains(e, "copy seen when it ended, not a final read") || !strings.Contains(e, "vigil activity get") {
		t.Errorf("standard error does not say the JSON is the copy seen ending, nor how to see the final state:\n%s", e)
	}
}
