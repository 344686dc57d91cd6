package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"sync/atomic"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// docs/cli.md: when the final read fails, --json prints the copy the poll
// saw end "as the service sent it". It was the decoded record encoded
// again: every field vigil does not model (the failure's details, a newer
// service's fields) was dropped, so a script got less than the service sent,
// with no sign of it. The JSON printed is now the reply itself.
func TestActivityWaitJSONFallbackKeepsFieldsVigilDoesNotModel(t *testing.T) {
	sent := fmt.Sprintf(`{"activity":{"id":%q,"organizationId":%q,"status":"ACTIVITY_STATUS_FAILED","type":"ACTIVITY_TYPE_CREATE_USER_TAG","intent":{},"result":{},"votes":[],"fingerprint":"sha256:00","canApprove":false,"canReject":false,"createdAt":{"seconds":"1","nanos":"0"},"updatedAt":{"seconds":"1","nanos":"0"},"failure":{"code":9,"message":"denied","details":[{"policyId":"p-1"}]},"laterField":{"kept":[1,2]}}}`,
		endedAct, endedOrg)
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) > 1 {
			http.Error(w, "forbidden", http.StatusForbidden)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, sent)
	}))
	t.Cleanup(srv.Close)
	c, out, errOut := waitEnv(t, srv.URL, endedOrg)
	code := exitCode(errOut, waitForActivity(context.Background(), c, []string{"--json", "--timeout", "1m", endedAct}))
	if code != exitFailure {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, out.String(), errOut.String())
	}
	var got map[string]any
	var want any
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("standard output is not one JSON record (%v):\n%s", err, out.String())
	}
	// With vigil's checks beside it: no votes to check, and the intent
	// not checked, saying why.
	checks, _ := got["voteChecks"].([]any)
	intent, _ := got["intentCheck"].(map[string]any)
	if checks == nil || len(checks) != 0 || intent["state"] != api.IntentNotChecked || intent["reason"] == "" {
		t.Errorf("the copy printed lacks its checks (an empty voteChecks, an intentCheck NOT checked saying why):\n%s", out.String())
	}
	delete(got, "voteChecks")
	delete(got, "intentCheck")
	if err := json.Unmarshal([]byte(sent), &want); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(any(got), want) {
		t.Errorf("the copy printed \"as the service sent it\" is not what it sent:\nsent:    %s\nprinted: %s", sent, out.String())
	}
}
