package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// bodyKeyedCache is a gateway in front of e's service that answers every
// whoami and get_activity of activity id with alice's (every member's
// requests are the same bytes, so a cache keyed on the body serves them
// all hers), and answers votes from that copy without forwarding them.
// Anything else goes through.
func bodyKeyedCache(t *testing.T, e *verbEnv, id string) string {
	t.Helper()
	ctx := context.Background()
	alice := e.client("alice")
	who, err := alice.QueryRaw(ctx, api.QueryWhoami, api.WhoamiRequest{OrganizationID: alice.OrganizationID()})
	if err != nil {
		t.Fatal(err)
	}
	got, err := alice.QueryRaw(ctx, api.QueryGetActivity, api.GetActivityRequest{OrganizationID: alice.OrganizationID(), ActivityID: id})
	if err != nil {
		t.Fatal(err)
	}
	target, err := url.Parse(e.demo.URL)
	if err != nil {
		t.Fatal(err)
	}
	rp := httputil.NewSingleHostReverseProxy(target)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		answer := func(b []byte) {
			w.Header().Set("Content-Type", "application/json")
			w.Write(b)
		}
		switch r.URL.Path {
		case "/public/v1/query/whoami":
			answer(who)
		case "/public/v1/query/get_activity", "/public/v1/submit/approve_activity", "/public/v1/submit/reject_activity":
			answer(got)
		default:
			rp.ServeHTTP(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return e.configVia(srv.URL, filepath.Join(t.TempDir(), "cache.toml"))
}

// A cache answers bob with alice's whoami and alice's read of the activity
// (her submission is her approval), and his vote with that copy, never
// forwarding it. Her approval is not bob's: it is not signed with bob's
// key. 'vigil request' must not say "you already approved" and exit 0:
// bob's vote is not on the activity.
func TestRequestVoteAnsweredByACacheOfTheRequesterIsNotAlreadyCast(t *testing.T) {
	e := newVerbEnv(t)
	id := openTag(t, e, "cache-request")
	fp := mustFingerprint(t, e, id)
	code, out, errOut := sendVoteRequest(t, e, bodyKeyedCache(t, e, id), fp)
	after, err := e.client("alice").GetActivity(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if after.VoteOf(e.userID("bob")) != nil {
		t.Fatalf("the cache forwarded the vote: %+v", after.Votes)
	}
	if code != exitOutcomeUnknown || strings.Contains(errOut, "already approved") {
		t.Errorf("bob's approval never reached the service, yet 'vigil request' exited %d (want %d, outcome unknown):\nstdout:\n%s\nstderr:\n%s",
			code, exitOutcomeUnknown, out, errOut)
	}
}

// The same cache in front of 'vigil activity approve': the read shows no
// vote offered and alice's approval, whoami names alice. Nothing is sent,
// and it must not exit 0 "you already approved this activity; nothing to
// do": look first (4).
func TestActivityApproveFromACacheOfTheRequesterIsNotAlreadyCast(t *testing.T) {
	e := newVerbEnv(t)
	id := openTag(t, e, "cache-approve")
	code, out, errOut := runVigil(t, map[string]string{"VIGIL_CONFIG": bodyKeyedCache(t, e, id)}, "", "activity", "approve", "--yes", "--profile", "bob", id)
	after, err := e.client("alice").GetActivity(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if after.VoteOf(e.userID("bob")) != nil {
		t.Fatalf("the cache forwarded the vote: %+v", after.Votes)
	}
	if code != exitOutcomeUnknown || strings.Contains(errOut, "nothing to do") {
		t.Errorf("bob's approval was never sent, yet 'activity approve' exited %d (want %d):\nstdout:\n%s\nstderr:\n%s", code, exitOutcomeUnknown, out, errOut)
	}
}

// bob rejected; a body of the other vote is refused before it is sent
// (docs/cli.md: "refused"), exit 1, saying nothing was sent. Sent, it may
// count (a round that ended between the read and the send starts afresh)
// while vigil says it cannot.
func TestRequestOtherVoteIsRefusedBeforeSending(t *testing.T) {
	e := newVerbEnv(t)
	id := openTag(t, e, "other-vote")
	fp := mustFingerprint(t, e, id)
	if _, err := e.client("bob").RejectActivity(context.Background(), fp); err != nil {
		t.Fatal(err)
	}
	var sent atomic.Int32
	gw := e.demo.Rewriting(func(op string, request, reply []byte) []byte {
		if strings.HasPrefix(op, "submit/") {
			sent.Add(1)
		}
		return reply
	})
	cfg := e.configVia(gw, filepath.Join(t.TempDir(), "count.toml"))
	code, out, errOut := sendVoteRequest(t, e, cfg, fp)
	if sent.Load() != 0 {
		t.Errorf("the approval was sent after bob's rejection (%d submits)", sent.Load())
	}
	if code != exitFailure || !strings.Contains(errOut, "nothing was sent") {
		t.Errorf("want exit %d saying nothing was sent; got %d:\nstdout:\n%s\nstderr:\n%s", exitFailure, code, out, errOut)
	}
	now, err := e.client("alice").GetActivity(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if v := now.VoteOf(e.userID("bob")); v == nil || v.Selection != api.VoteRejected {
		t.Errorf("bob's vote is not his rejection: %+v", v)
	}
}

// The same vote sent again with a new body (a fresh timestampMs): the
// service refuses it as a second vote (409), and the activity shows the
// vote bob's key cast. That is "already cast" (exit 0, as 'activity reject'
// and docs/cli.md say), printing the activity read, with bob's vote.
func TestRequestSameVoteWithANewBodyIsAlreadyCast(t *testing.T) {
	e := newVerbEnv(t)
	id := openTag(t, e, "new-body")
	fp := mustFingerprint(t, e, id)
	env := map[string]string{"VIGIL_CONFIG": e.config}
	first := rejectBody(e, fp)
	code, out, errOut := runVigil(t, env, first, "request", "--profile", "bob", "--path", "/public/v1/submit/reject_activity", "--body-file", "-")
	wantExit(t, "first rejection", code, exitOK, out, errOut)
	// Another body than the first: a script builds it anew, a minute older
	// (the service takes a body within its five-minute window).
	second := fmt.Sprintf(`{"type":%q,"timestampMs":"%d","organizationId":%q,"parameters":{"fingerprint":%q}}`,
		api.TypeRejectActivity, time.Now().Add(-time.Minute).UnixMilli(), e.demo.Info.OrganizationID, fp)
	if second == first {
		t.Fatal("the second body is the first")
	}
	code, out, errOut = runVigil(t, env, second, "request", "--profile", "bob", "--path", "/public/v1/submit/reject_activity", "--body-file", "-")
	if code != exitOK || !strings.Contains(errOut, "you already rejected") {
		t.Fatalf("bob's rejection was already cast; the same vote in a new body exited %d, want 0 saying so:\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	var printed api.ActivityResponse
	if err := json.Unmarshal([]byte(out), &printed); err != nil || printed.Activity.ID != id || printed.Activity.VoteOf(e.userID("bob")) == nil {
		t.Errorf("stdout is not the activity with bob's vote (%v):\n%s", err, out)
	}
}

// mustFingerprint is the fingerprint of activity id, read as alice.
func mustFingerprint(t *testing.T, e *verbEnv, id string) string {
	t.Helper()
	a, err := e.client("alice").GetActivity(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return a.Fingerprint
}
