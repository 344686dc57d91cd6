package cli

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// A network element that rewrites the fingerprint in the get_activity reply
// of activity A (a harmless tag) to that of activity B (another pending
// activity of the same organization) gets the voter's signed approval of B.
// The client cannot recompute a fingerprint (it is over the exact request
// body, which no reply carries), so the vote's reply, about B, must be said
// loudly to be about another activity, with B's own intent, and exit 4.
func TestVoteReplyAboutAnotherActivityIsSaidLoudly(t *testing.T) {
	e := newVerbEnv(t)
	code, out, errOut := e.run("", "tag", "create", "--name", "vote-harmless")
	wantExit(t, "tag A", code, exitOK, out, errOut)
	idA := activityIDFrom(t, out)
	code, out, errOut = e.run("", "tag", "create", "--name", "vote-other")
	wantExit(t, "tag B", code, exitOK, out, errOut)
	idB := activityIDFrom(t, out)
	ctx := context.Background()
	a, err := e.client("alice").GetActivity(ctx, idA)
	if err != nil {
		t.Fatal(err)
	}
	b, err := e.client("alice").GetActivity(ctx, idB)
	if err != nil {
		t.Fatal(err)
	}
	url := e.demo.Rewriting(func(op string, request, reply []byte) []byte {
		if op == "query/get_activity" && bytes.Contains(request, []byte(idA)) {
			return bytes.ReplaceAll(reply, []byte(a.Fingerprint), []byte(b.Fingerprint))
		}
		return reply
	})
	cfg := e.configVia(url, filepath.Join(t.TempDir(), "rw.toml"))
	code, out, errOut = runVigil(t, map[string]string{"VIGIL_CONFIG": cfg}, "", "activity", "approve", "--yes", "--profile", "bob", idA)
	if code != exitOutcomeUnknown {
		t.Errorf("'activity approve %s' answered about %s exited %d, want %d (look first)\nstdout:\n%s\nstderr:\n%s", idA, idB, code, exitOutcomeUnknown, out, errOut)
	}
	for _, want := range []string{"ANOTHER activity", idB, "vote-other"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("standard error does not say %q:\n%s", want, errOut)
		}
	}
	if strings.Contains(out+errOut, "vote-harmless") {
		t.Errorf("A's intent is shown with the reply about B:\nstdout:\n%s\nstderr:\n%s", out, errOut)
	}
}
