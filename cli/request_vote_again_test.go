package cli

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// rejectBody is a reject_activity body for 'vigil request', voting on the
// activity with fingerprint fp.
func rejectBody(e *verbEnv, fp string) string { return voteBodyOfType(e, api.TypeRejectActivity, fp) }

// A vote whose reply was lost is sent again, the very same bytes, as vigil's
// own messages say is safe. The service answers it with the activity showing
// the vote those bytes cast: that is "already recorded" (exit 0, saying so),
// as 'vigil activity approve' says of a vote already there, whether the vote
// ended the activity (an approval: COMPLETED, no longer waiting for votes)
// or left it waiting (a rejection: one of the two that end it). A body of
// the other vote is still refused.
func TestRequestVoteResendOfTheSameBodyIsAlreadyRecorded(t *testing.T) {
	e := newVerbEnv(t)
	env := map[string]string{"VIGIL_CONFIG": e.config}
	for _, tc := range []struct {
		name, path, other, status string
		body                      func(*verbEnv, string) string
		otherBody                 func(*verbEnv, string) string
	}{
		{"approve", "/public/v1/submit/approve_activity", "/public/v1/submit/reject_activity", api.StatusCompleted, voteBody, rejectBody},
		{"reject", "/public/v1/submit/reject_activity", "/public/v1/submit/approve_activity", api.StatusConsensusNeeded, rejectBody, voteBody},
	} {
		t.Run(tc.name, func(t *testing.T) {
			id := openTag(t, e, "resend-"+tc.name)
			a, err := e.client("alice").GetActivity(context.Background(), id)
			if err != nil {
				t.Fatal(err)
			}
			body := tc.body(e, a.Fingerprint)
			send := func(path, body string) (int, string, string) {
				return runVigil(t, env, body, "request", "--profile", "bob", "--path", path, "--body-file", "-")
			}
			code, out, errOut := send(tc.path, body)
			wantExit(t, "first send", code, exitOK, out, errOut)
			first, err := e.client("alice").GetActivity(context.Background(), id)
			if err != nil || first.VoteOf(e.userID("bob")) == nil || first.Status != tc.status {
				t.Fatalf("want bob's vote recorded and the activity %s: %v %+v", tc.status, err, first)
			}
			// The reply was lost: the same bytes again.
			code, out, errOut = send(tc.path, body)
			if code != exitOK || !strings.Contains(errOut, "you already") {
				t.Fatalf("the same %s body sent again (the activity is %s with bob's vote) exited %d, want 0 saying the vote was already there\nstdout:\n%s\nstderr:\n%s",
					tc.name, first.Status, code, out, errOut)
			}
			var printed api.ActivityResponse
			if err := json.Unmarshal([]byte(out), &printed); err != nil || printed.Activity.ID != id || printed.Activity.VoteOf(e.userID("bob")) == nil {
				t.Errorf("stdout is not the activity with bob's vote (%v):\n%s", err, out)
			}
			// The other vote, a new body: a vote cannot be changed.
			code, out, errOut = send(tc.other, tc.otherBody(e, a.Fingerprint))
			if code == exitOK || code == exitOutcomeUnknown {
				t.Errorf("the other vote after bob's %s exited %d, want a refusal\nstdout:\n%s\nstderr:\n%s", tc.name, code, out, errOut)
			}
			if now, err := e.client("alice").GetActivity(context.Background(), id); err != nil || now.VoteOf(e.userID("bob")).Selection != first.VoteOf(e.userID("bob")).Selection {
				t.Errorf("bob's vote changed: %v", err)
			}
		})
	}
}

// A reply that does not show the vote (a cache's copy from before it) is
// settled by reading the activity again; when that read shows the vote,
// 'vigil request' exits 0 and, as 'vigil activity approve' does, prints
// the activity as read again, not the stale reply (no vote, the status from
// before it), saying so on standard error.
func TestRequestVoteSettledPrintsTheActivityReadAgain(t *testing.T) {
	e := newVerbEnv(t)
	id := openTag(t, e, "settled-out")
	a, err := e.client("alice").GetActivity(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	cfg := voteGateway(t, e, true, nil) // forwards the vote, answers with the copy read before it
	code, out, errOut := runVigil(t, map[string]string{"VIGIL_CONFIG": cfg}, "", "activity", "get", "--profile", "bob", id)
	wantExit(t, "activity get through the gateway", code, exitOK, out, errOut)
	code, out, errOut = sendVoteRequest(t, e, cfg, a.Fingerprint)
	wantExit(t, "request vote through the gateway", code, exitOK, out, errOut)
	after, err := e.client("alice").GetActivity(context.Background(), id)
	if err != nil || after.VoteOf(e.userID("bob")) == nil {
		t.Fatalf("bob's vote is not recorded: %v", err)
	}
	var printed api.ActivityResponse
	if err := json.Unmarshal([]byte(out), &printed); err != nil {
		t.Fatalf("stdout is not an activity as JSON: %v\n%s", err, out)
	}
	if printed.Activity.ID != id || printed.Activity.VoteOf(e.userID("bob")) == nil || printed.Activity.Status != after.Status {
		t.Errorf("exit 0, but stdout shows activity %s with status %s and bob's vote %v; it is %s with his vote\nstdout:\n%s\nstderr:\n%s",
			printed.Activity.ID, printed.Activity.Status, printed.Activity.VoteOf(e.userID("bob")), after.Status, out, errOut)
	}
	if !strings.Contains(errOut, "read after the vote") {
		t.Errorf("standard error does not say stdout is the activity read after the vote, not the reply:\n%s", errOut)
	}
}

// The same vote sent again, answered with a copy of the activity from
// before the vote (a cache's): the read before sending already showed the
// vote, and a read since shows it still, so it is already recorded (exit
// 0), and what is printed is that read, not the copy.
func TestRequestVoteResendAnsweredWithAStaleCopyPrintsTheReadAgain(t *testing.T) {
	e := newVerbEnv(t)
	a, stale := openTagReadBefore(t, e, "resend-stale")
	id := a.ID
	body := voteBody(e, a.Fingerprint)
	code, out, errOut := runVigil(t, map[string]string{"VIGIL_CONFIG": e.config}, body,
		"request", "--profile", "bob", "--path", "/public/v1/submit/approve_activity", "--body-file", "-")
	wantExit(t, "first send", code, exitOK, out, errOut)
	url := e.demo.Rewriting(func(op string, request, reply []byte) []byte {
		if op == "submit/approve_activity" {
			return stale
		}
		return reply
	})
	cfg := e.configVia(url, filepath.Join(t.TempDir(), "stale.toml"))
	code, out, errOut = runVigil(t, map[string]string{"VIGIL_CONFIG": cfg}, body,
		"request", "--profile", "bob", "--path", "/public/v1/submit/approve_activity", "--body-file", "-")
	wantExit(t, "the same body again, answered with a copy from before the vote", code, exitOK, out, errOut)
	now, err := e.client("alice").GetActivity(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	var printed api.ActivityResponse
	if err := json.Unmarshal([]byte(out), &printed); err != nil || printed.Activity.ID != id || printed.Activity.VoteOf(e.userID("bob")) == nil || printed.Activity.Status != now.Status {
		t.Errorf("stdout is not the activity as it is (%s, with bob's vote): %v\n%s", now.Status, err, out)
	}
	if !strings.Contains(errOut, "you already approved") || !strings.Contains(errOut, "read after the vote") {
		t.Errorf("standard error does not say the vote was there already and what is printed:\n%s", errOut)
	}
}

// openTagReadBefore opens a tag activity and reads it as alice sees it
// and as the service's raw get_activity reply before any vote: the copy a
// cache could answer a vote with.
func openTagReadBefore(t *testing.T, e *verbEnv, name string) (*api.Activity, json.RawMessage) {
	t.Helper()
	ctx := context.Background()
	id := openTag(t, e, name)
	a, err := e.client("alice").GetActivity(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	stale, err := e.client("bob").QueryRaw(ctx, api.QueryGetActivity, api.GetActivityRequest{OrganizationID: e.demo.Info.OrganizationID, ActivityID: id})
	if err != nil {
		t.Fatal(err)
	}
	return a, stale
}
