package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// A vote answered 200 with the voted activity as it stood before the vote
// (same organization and fingerprint, no vote of the voter's) is not taken
// as the vote's outcome: the activity is read again, and as it does not
// show the vote the outcome is unknown (exit 4), never success.
func TestVoteReplyWithoutMyVoteIsNotSuccess(t *testing.T) {
	e := newVerbEnv(t)
	code, out, errOut := e.run("", "tag", "create", "--name", "vote-stale")
	wantExit(t, "tag create", code, exitOK, out, errOut)
	id := activityIDFrom(t, out)
	a, err := e.client("alice").GetActivity(context.Background(), id)
	if err != nil || api.IsTerminal(a.Status) {
		t.Fatalf("want an open activity: %v %+v", err, a)
	}
	cfg := voteGateway(t, e, false, nil) // a cache answering the vote with its copy from before it
	code, out, errOut = runVigil(t, map[string]string{"VIGIL_CONFIG": cfg}, "", "activity", "approve", "--yes", "--profile", "bob", id)
	after, err := e.client("alice").GetActivity(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if after.VoteOf(e.userID("bob")) != nil {
		t.Fatalf("the cache forwarded the vote: %+v", after)
	}
	if code != exitOutcomeUnknown {
		t.Fatalf("bob's approval was never recorded (activity still %s), yet 'activity approve' exited %d, want %d:\nstdout:\n%s\nstderr:\n%s", after.Status, code, exitOutcomeUnknown, out, errOut)
	}
	if !strings.Contains(errOut, "does not show your vote") {
		t.Errorf("standard error does not say the vote is not shown:\n%s", errOut)
	}
}
