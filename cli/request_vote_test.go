package cli

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// voteBody is an approve_activity body for 'vigil request', voting on the
// activity with fingerprint fp.
func voteBody(e *verbEnv, fp string) string { return voteBodyOfType(e, api.TypeApproveActivity, fp) }

// voteBodyOfType is a vote body of type typ (approve_activity or
// reject_activity) for 'vigil request', on the activity with fingerprint fp.
func voteBodyOfType(e *verbEnv, typ, fp string) string {
	return fmt.Sprintf(`{"type":%q,"timestampMs":"%d","organizationId":%q,"parameters":{"fingerprint":%q}}`,
		typ, time.Now().UnixMilli(), e.demo.Info.OrganizationID, fp)
}

// sendVoteRequest runs 'vigil request' as bob with an approval of fp through cfg.
func sendVoteRequest(t *testing.T, e *verbEnv, cfg, fp string) (int, string, string) {
	t.Helper()
	return runVigil(t, map[string]string{"VIGIL_CONFIG": cfg}, voteBody(e, fp),
		"request", "--profile", "bob", "--path", "/public/v1/submit/approve_activity", "--body-file", "-")
}

// A vote sent with 'vigil request' whose reply is about another activity
// (a proxy swapped it, keeping the fingerprint voted on) is said loudly, as
// 'vigil activity approve' says it, and exits 4: binding the reply by
// organization and fingerprint alone took it for the vote's outcome.
func TestRequestVoteReplyAboutAnotherActivityIsSaidLoudly(t *testing.T) {
	e := newVerbEnv(t)
	idA := openTag(t, e, "request-vote-voted")
	idB := openTag(t, e, "request-vote-other")
	ctx := context.Background()
	a, err := e.client("alice").GetActivity(ctx, idA)
	if err != nil {
		t.Fatal(err)
	}
	b, err := e.client("alice").QueryRaw(ctx, api.QueryGetActivity, api.GetActivityRequest{OrganizationID: e.demo.Info.OrganizationID, ActivityID: idB})
	if err != nil {
		t.Fatal(err)
	}
	bFP, err := e.client("alice").GetActivity(ctx, idB)
	if err != nil {
		t.Fatal(err)
	}
	swapped := bytes.ReplaceAll(b, []byte(bFP.Fingerprint), []byte(a.Fingerprint))
	url := e.demo.Rewriting(func(op string, request, reply []byte) []byte {
		if op == "submit/approve_activity" {
			return swapped
		}
		return reply
	})
	code, out, errOut := sendVoteRequest(t, e, e.configVia(url, filepath.Join(t.TempDir(), "swap.toml")), a.Fingerprint)
	if code != exitOutcomeUnknown {
		t.Errorf("a vote on %s answered about %s exited %d, want %d (look first)\nstdout:\n%s\nstderr:\n%s", idA, idB, code, exitOutcomeUnknown, out, errOut)
	}
	for _, want := range []string{"ANOTHER activity", idB, "request-vote-other"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("standard error does not say %q:\n%s", want, errOut)
		}
	}
}

// A vote sent with 'vigil request' answered with the activity as it stood
// before the vote (a cache's copy: same fingerprint, no vote of bob's) is
// not success: the activity is read again and, as it does not show the
// vote, the outcome is unknown (exit 4). Sent straight to the service, the
// same vote exits 0.
func TestRequestVoteReplyWithoutTheVoteIsNotSuccess(t *testing.T) {
	e := newVerbEnv(t)
	id := openTag(t, e, "request-vote-stale")
	a, err := e.client("alice").GetActivity(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	cfg := voteGateway(t, e, false, nil)
	// The gateway keeps this read to answer the vote with.
	code, out, errOut := runVigil(t, map[string]string{"VIGIL_CONFIG": cfg}, "", "activity", "get", "--profile", "bob", id)
	wantExit(t, "activity get through the gateway", code, exitOK, out, errOut)
	code, out, errOut = sendVoteRequest(t, e, cfg, a.Fingerprint)
	after, err := e.client("alice").GetActivity(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if after.VoteOf(e.userID("bob")) != nil {
		t.Fatalf("the gateway forwarded the vote: %+v", after)
	}
	if code != exitOutcomeUnknown || !strings.Contains(errOut, "does not show your vote") {
		t.Fatalf("bob's approval was never recorded, yet 'request' exited %d (want %d, saying the vote is not shown):\nstdout:\n%s\nstderr:\n%s", code, exitOutcomeUnknown, out, errOut)
	}

	code, out, errOut = sendVoteRequest(t, e, e.config, a.Fingerprint)
	wantExit(t, "request approve_activity straight to the service", code, exitOK, out, errOut)
	if after, err = e.client("alice").GetActivity(context.Background(), id); err != nil || after.VoteOf(e.userID("bob")) == nil {
		t.Fatalf("bob's vote is not recorded: %v %+v", err, after)
	}
}
