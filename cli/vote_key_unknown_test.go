package cli

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
)

// opaqueStamper stamps with a key it does not say the public key of (as a
// stamper may not): only Stamp shows through.
type opaqueStamper struct{ keys.Stamper }

// When the stamping key does not say its public key, a vote can be told as
// the voter's only by the user whoami names, which a cache may answer with
// another member's. A vote already there is then never "you already
// approved …; nothing to do" (exit 0), even the voter's own: whether the
// vote is recorded is not known (exit 4).
func TestVoteAlreadyThereWithKeyUnknownIsOutcomeUnknown(t *testing.T) {
	e := newVerbEnv(t)
	ctx := context.Background()
	id := openTag(t, e, "key-unknown")
	k, err := keys.Store{Dir: e.demo.KeysDir}.Load("bob")
	if err != nil {
		t.Fatal(err)
	}
	client, err := api.NewClient(e.demo.URL, e.demo.Info.OrganizationID, opaqueStamper{k})
	if err != nil {
		t.Fatal(err)
	}
	a, err := getActivityShown(ctx, client, id)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.ApproveActivity(ctx, a.Fingerprint); err != nil {
		t.Fatal(err)
	}
	if a, err = getActivityShown(ctx, client, id); err != nil {
		t.Fatal(err)
	}
	var errOut strings.Builder
	c := proc{stdin: strings.NewReader(""), stdout: io.Discard, stderr: &errOut, getenv: func(string) string { return "" }}
	var refusal error
	if api.IsTerminal(a.Status) {
		refusal = votedOnEnded(ctx, c, client, a, true, false)
	} else {
		refusal = whyNoVote(ctx, c, client, a, true, false)
	}
	if code := exitCode(&errOut, refusal); code != exitOutcomeUnknown {
		t.Errorf("a vote told only by whoami's user exited %d, want %d (outcome unknown):\n%s", code, exitOutcomeUnknown, errOut.String())
	}
}
