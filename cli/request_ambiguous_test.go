package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// tagBody is a create_user_tag body for 'vigil request'.
func tagBody(e *verbEnv, name string) string {
	return fmt.Sprintf(`{"type":"ACTIVITY_TYPE_CREATE_USER_TAG","timestampMs":"%d","organizationId":%q,"parameters":{"userTagName":%q,"userIds":[]}}`,
		time.Now().UnixMilli(), e.demo.Info.OrganizationID, name)
}

// otherActivity is the activity of another open tag, as get_activity sends it.
func otherActivity(t *testing.T, e *verbEnv, name string) (id string, activity json.RawMessage) {
	t.Helper()
	id = openTag(t, e, name)
	raw, err := e.client("bob").QueryRaw(context.Background(), api.QueryGetActivity,
		api.GetActivityRequest{OrganizationID: e.demo.Info.OrganizationID, ActivityID: id})
	if err != nil {
		t.Fatal(err)
	}
	return id, innerActivity(t, raw)
}

// wantAmbiguityRefused checks that a reply that can be read two ways was
// neither printed nor decided on: exit 4, nothing on standard output, and
// standard error says so, with where to look.
func wantAmbiguityRefused(t *testing.T, code int, out, errOut, key, look string) {
	t.Helper()
	wantExit(t, "a reply that can be read two ways", code, exitOutcomeUnknown, out, errOut)
	if out != "" {
		t.Errorf("standard output holds a reply that jq and vigil read differently:\n%s", out)
	}
	if !strings.Contains(errOut, "read two ways") || !strings.Contains(errOut, key) || !strings.Contains(errOut, look) {
		t.Errorf("standard error does not say the reply can be read two ways (%s) and to %s:\n%s", key, look, errOut)
	}
}

// A vote's first reply {"activity": <another>, "ACTIVITY": <the one voted
// on, showing the vote>} passed the vote checks on the second while jq reads
// the first: refused, exit 4.
func TestRequestVoteReplyWithCaseVariantKeyIsRefused(t *testing.T) {
	e := newVerbEnv(t)
	idA := openTag(t, e, "dup-vote-voted")
	idB, other := otherActivity(t, e, "dup-vote-other")
	a, err := e.client("alice").GetActivity(context.Background(), idA)
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut := sendVoteRequest(t, e, answeredTwoWays(t, e, "submit/approve_activity", other), a.Fingerprint)
	wantAmbiguityRefused(t, code, out, errOut, `"ACTIVITY"`, "vigil activity get "+idA)
	if strings.Contains(out, idB) {
		t.Errorf("standard output holds the other activity %s", idB)
	}
}

// The same trick on a plain submit's reply.
func TestRequestSubmitReplyWithCaseVariantKeyIsRefused(t *testing.T) {
	e := newVerbEnv(t)
	_, other := otherActivity(t, e, "dup-submit-other")
	env := map[string]string{"VIGIL_CONFIG": answeredTwoWays(t, e, "submit/create_user_tag", other)}
	code, out, errOut := runVigil(t, env, "", "request", "--path", "/public/v1/submit/create_user_tag", "--body", tagBody(e, "dup-submit-new"))
	wantAmbiguityRefused(t, code, out, errOut, `"ACTIVITY"`, "vigil activity list")
}

// A status given twice inside the activity, the second only in another case:
// vigil would decide (FAILED: exit 1) on "Status", jq reads .activity.status.
func TestRequestVoteReplyWithCaseVariantStatusIsRefused(t *testing.T) {
	e := newVerbEnv(t)
	id := openTag(t, e, "dup-status")
	a, err := e.client("alice").GetActivity(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	url := e.demo.Rewriting(func(op string, request, reply []byte) []byte {
		if op == "submit/approve_activity" {
			inner := bytes.TrimSuffix(bytes.TrimSpace(innerActivity(t, reply)), []byte("}"))
			return []byte(`{"activity":` + string(inner) + `,"Status":"FAILED"}}`)
		}
		return reply
	})
	code, out, errOut := sendVoteRequest(t, e, e.configVia(url, filepath.Join(t.TempDir(), "dup.toml")), a.Fingerprint)
	wantAmbiguityRefused(t, code, out, errOut, `"Status"`, "vigil activity get "+id)
}

// An honest reply, with a field vigil does not know, is printed as sent
// (the same members in the same order) and exits 0.
func TestRequestHonestReplyIsStillPrinted(t *testing.T) {
	e := newVerbEnv(t)
	wantHonestReplyPrintedAsSent(t, e, false, "request", "--path", "/public/v1/submit/create_user_tag", "--body", tagBody(e, "honest-reply"))
}

// wantHonestReplyPrintedAsSent runs vigil with args, its create_user_tag
// reply given fields vigil does not know (one whose name folds to a known
// one's, but at another level), and wants the reply printed as sent, exit 0.
func wantHonestReplyPrintedAsSent(t *testing.T, e *verbEnv, checked bool, args ...string) {
	t.Helper()
	var mu sync.Mutex
	var sent []byte
	url := e.demo.Rewriting(func(op string, request, reply []byte) []byte {
		if op != "submit/create_user_tag" {
			return reply
		}
		mu.Lock()
		defer mu.Unlock()
		sent = bytes.Replace(reply, []byte(`{"activity":{`), []byte(`{"zNewField":{"Activity":1},"activity":{"zNew":true,`), 1)
		return sent
	})
	env := map[string]string{"VIGIL_CONFIG": e.configVia(url, filepath.Join(t.TempDir(), "honest.toml"))}
	code, out, errOut := runVigil(t, env, "", args...)
	wantExit(t, "an honest reply", code, exitOK, out, errOut)
	mu.Lock()
	defer mu.Unlock()
	var want, got bytes.Buffer
	if err := json.Compact(&want, sent); err != nil {
		t.Fatalf("the reply sent is not JSON: %v", err)
	}
	if checked {
		// The verbs add vigil's checks after the reply (withVoteChecks).
		asSent, _ := splitChecks(t, out)
		if string(asSent) != want.String() {
			t.Errorf("standard output is not the reply as sent with the checks after it:\ngot  %s\nwant %s", asSent, want.String())
		}
		return
	}
	if err := json.Compact(&got, []byte(out)); err != nil || got.String() != want.String() {
		t.Errorf("standard output is not the reply as sent (%v):\ngot  %s\nwant %s", err, got.String(), want.String())
	}
}
