package cli

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// endingFirst is a gateway to the demo service that, before it passes on
// the first vote (approve_activity or reject_activity), runs meanwhile:
// another member's vote lands first, as when it is cast while the voter's
// [y/N] prompt is open, or between the voter's read and their send. It
// returns a config whose profiles go through it.
func endingFirst(t *testing.T, e *verbEnv, meanwhile func()) string {
	t.Helper()
	target, _ := url.Parse(e.demo.URL)
	rp := httputil.NewSingleHostReverseProxy(target)
	var once sync.Once
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/public/v1/submit/approve_activity" || r.URL.Path == "/public/v1/submit/reject_activity" {
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			once.Do(meanwhile)
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return e.configVia(srv.URL, filepath.Join(t.TempDir(), "race.toml"))
}

// approvedBy is a meanwhile of endingFirst: member approves the activity
// fingerprinted fp, which must then have ended COMPLETED. Its stamp is a
// second behind, so that its body is never byte for byte the vote it
// races (the same millisecond would make them one request).
func approvedBy(t *testing.T, e *verbEnv, member, fp string) func() {
	earlier := func() time.Time { return time.Now().Add(-time.Second) }
	client := e.demo.ClientAt(e.demo.URL, member, api.WithClock(earlier))
	return func() {
		a, err := client.ApproveActivity(context.Background(), fp)
		if err != nil || a.Status != api.StatusCompleted {
			t.Errorf("%s's approval, meant to complete the activity first: %v %+v", member, err, a)
		}
	}
}

// wantNotCounted checks that a vote refused because the activity ended
// first exits 1 saying so, not with the service's "correct the request".
func wantNotCounted(t *testing.T, what string, code int, out, errOut string, says ...string) {
	t.Helper()
	wantExit(t, what, code, exitFailure, out, errOut)
	for _, want := range append([]string{"not counted", "already " + api.StatusCompleted, "by the time your vote arrived"}, says...) {
		if !strings.Contains(errOut, want) {
			t.Errorf("%s: standard error does not say %q:\n%s", what, want, errOut)
		}
	}
	if strings.Contains(errOut, "correct the request") {
		t.Errorf("%s: standard error tells the voter to correct a vote that had nothing wrong:\n%s", what, errOut)
	}
}

// Another member completes the activity after 'vigil activity approve' or
// 'reject' read it and before the vote arrives: the service refuses the
// vote (NOT_VOTABLE), and the CLI reads the activity again and says the
// vote came too late, as it does when the activity had ended before the
// read (votedOnEnded) and as the console does. Found by audit 209.
func TestVoteAfterAnotherMemberEndedItSaysNotCounted(t *testing.T) {
	for _, verb := range []string{"approve", "reject"} {
		t.Run(verb, func(t *testing.T) {
			e := newVerbEnv(t)
			id := openTag(t, e, "ended-meanwhile-"+verb)
			a, err := e.client("alice").GetActivity(context.Background(), id)
			if err != nil {
				t.Fatal(err)
			}
			cfg := endingFirst(t, e, approvedBy(t, e, "carol", a.Fingerprint))
			code, out, errOut := runVigil(t, map[string]string{"VIGIL_CONFIG": cfg}, "", "activity", verb, "--yes", "--profile", "bob", id)
			vote := map[string]string{"approve": "your approval", "reject": "your rejection"}[verb]
			wantNotCounted(t, "activity "+verb, code, out, errOut, vote, "vigil activity get "+id)
			if verb == "approve" {
				wantDocQuoted(t, errOut)
			}
			after, err := e.client("alice").GetActivity(context.Background(), id)
			if err != nil {
				t.Fatal(err)
			}
			if after.VoteOf(e.userID("bob")) != nil {
				t.Fatalf("bob's vote was recorded after all: %+v", after.Votes)
			}
		})
	}
}

// The voter's own same vote, cast from elsewhere (another terminal, the
// console) after the read, is what the vote asked for: the service refuses
// this one as a second vote, and the CLI says it is there already, exit 0,
// as it does when the read before showed it.
func TestVoteAfterOwnVoteFromElsewhereIsNothingToDo(t *testing.T) {
	e := newVerbEnv(t)
	id := openTag(t, e, "own-vote-meanwhile")
	a, err := e.client("alice").GetActivity(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	cfg := endingFirst(t, e, approvedBy(t, e, "bob", a.Fingerprint))
	code, out, errOut := runVigil(t, map[string]string{"VIGIL_CONFIG": cfg}, "", "activity", "approve", "--yes", "--profile", "bob", id)
	wantExit(t, "activity approve", code, exitOK, out, errOut)
	if !strings.Contains(errOut, "you already approved this activity") || !strings.Contains(errOut, "nothing to do") {
		t.Errorf("standard error does not say the approval is there already:\n%s", errOut)
	}
	if !strings.Contains(out, id) {
		t.Errorf("the activity is not printed:\n%s", out)
	}
}

// 'vigil request' with a vote body has the same race: the refusal
// (NOT_VOTABLE) is explained from the activity read again.
func TestRequestVoteAfterAnotherMemberEndedItSaysNotCounted(t *testing.T) {
	e := newVerbEnv(t)
	id := openTag(t, e, "request-ended-meanwhile")
	a, err := e.client("alice").GetActivity(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	cfg := endingFirst(t, e, approvedBy(t, e, "carol", a.Fingerprint))
	code, out, errOut := sendVoteRequest(t, e, cfg, a.Fingerprint)
	wantNotCounted(t, "request", code, out, errOut, "your approval", "HTTP 400", "vigil activity get "+id)
}

// wantDocQuoted checks that the words docs/cli.md quotes for a vote that
// came too late are the words printed (audit 220, L5): a script greps them.
func wantDocQuoted(t *testing.T, errOut string) {
	t.Helper()
	doc, err := os.ReadFile("../docs/cli.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("`(your approval was not counted:[^`]*)`").FindSubmatch([]byte(strings.Join(strings.Fields(string(doc)), " ")))
	if m == nil {
		t.Fatal("docs/cli.md no longer quotes the message of a vote that came too late")
	}
	if !strings.Contains(errOut, string(m[1])) {
		t.Errorf("docs/cli.md quotes %q, not what is printed:\n%s", m[1], errOut)
	}
}
