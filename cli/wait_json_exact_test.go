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

	"github.com/vigil-console/vigil/api"
)

// onceThenRefused is a service that answers the first get_activity with
// activity endedAct in status (any string, sent JSON-escaped) with intent,
// and refuses every later read (a gateway's 403).
func onceThenRefused(t *testing.T, status, intent string) *httptest.Server {
	quoted, err := json.Marshal(status)
	if err != nil {
		t.Fatal(err)
	}
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) > 1 {
			http.Error(w, "forbidden", http.StatusForbidden)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"activity":{"id":%q,"organizationId":%q,"status":%s,"type":"ACTIVITY_TYPE_CREATE_USER_TAG","intent":%s,"result":{},"votes":[],"fingerprint":"sha256:00","canApprove":false,"canReject":false,"createdAt":{"seconds":"1","nanos":"0"},"updatedAt":{"seconds":"1","nanos":"0"}}}`,
			endedAct, endedOrg, quoted, intent)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// With --json, when the final read of the ended activity fails, the copy the
// poll saw end is printed instead: as the service sent it, escaped once by
// the JSON encoder. A tag name holding U+202E decodes back to that name, not
// to the display escape "\u202e" as six characters (escaped twice).
func TestActivityWaitJSONFallbackPrintsTheRecordAsSent(t *testing.T) {
	name := "ops\u202eevil"
	quoted, err := json.Marshal(name)
	if err != nil {
		t.Fatal(err)
	}
	srv := onceThenRefused(t, api.StatusRejected, `{"createUserTagIntent":{"userTagName":`+string(quoted)+`,"userIds":[]}}`)
	c, out, errOut := waitEnv(t, srv.URL, endedOrg)
	code := exitCode(errOut, waitForActivity(context.Background(), c, []string{"--json", "--timeout", "1m", endedAct}))
	if code != exitFailure {
		t.Fatalf("activity REJECTED, its final read refused: exit %d, want %d\nstdout: %s\nstderr: %s", code, exitFailure, out.String(), errOut.String())
	}
	var got api.ActivityResponse
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("standard output is not one JSON record (%v):\n%s", err, out.String())
	}
	in := got.Activity.Intent.CreateUserTagIntent
	if in == nil || in.UserTagName != name {
		t.Errorf("the printed record's tag name is %+v, want %q as the service sent it\nstdout: %s", in, name, out.String())
	}
}

// The wait reads the activity exactly as sent (for --json): what it says on
// standard error while following it is still escaped, so a status holding
// an escape sequence cannot reach the terminal.
func TestActivityWaitEscapesTheStatusItFollows(t *testing.T) {
	srv := onceThenRefused(t, "ACTIVITY_STATUS_\x1b]0;owned\x07", "{}")
	c, out, errOut := waitEnv(t, srv.URL, endedOrg)
	code := exitCode(errOut, waitForActivity(context.Background(), c, []string{"--timeout", "1m", endedAct}))
	if code != exitWaitFailed {
		t.Errorf("the second poll refused: exit %d, want %d\nstderr: %q", code, exitWaitFailed, errOut.String())
	}
	if e := errOut.String(); strings.ContainsAny(e+out.String(), "\x1b\x07") {
		t.Errorf("a control character of the status reached the terminal:\n%q", e)
	}
}
