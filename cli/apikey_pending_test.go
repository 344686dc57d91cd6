package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// apikey delete refuses a key whose deletion already waits for votes, as the
// console's d does, naming the pending activity: a second deletion would
// FAIL once the first completed, after the quorum voted on it.
func TestAPIKeyDeleteRefusesAKeyWhoseDeletionIsPending(t *testing.T) {
	e := newVerbEnv(t)
	ctx := context.Background()
	pendingDeletions := func() []api.Activity {
		t.Helper()
		acts, err := e.client("alice").ListActivities(ctx, api.ListActivitiesOptions{
			Types: []string{api.TypeDeleteAPIKeys}, Statuses: []string{api.StatusConsensusNeeded}, Limit: 100})
		if err != nil {
			t.Fatal(err)
		}
		return acts
	}
	acts := pendingDeletions()
	if len(acts) != 1 {
		t.Fatalf("the demo should seed one pending key deletion, has %d", len(acts))
	}
	pending := acts[0]
	key := pending.Intent.DeleteAPIKeysIntent.APIKeyIDs[0]
	code, out, errOut := e.run("", "apikey", "delete", "--yes", "--profile", "alice", key)
	if code != 1 {
		t.Errorf("apikey delete of a key whose deletion is pending: exit %d, want 1\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	if !strings.Contains(errOut, pending.ID) || !strings.Contains(errOut, "vigil activity approve "+pending.ID) {
		t.Errorf("the refusal does not name the pending deletion %s and how to approve it:\n%s", pending.ID, errOut)
	}
	if n := len(pendingDeletions()); n != 1 {
		t.Errorf("a second deletion of %s was submitted: %d pending deletions", key, n)
	}
}
