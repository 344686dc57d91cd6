package server

import (
	"errors"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// ioFault is the error of a statement the disk failed to read: what
// asStorageError makes of SQLite's SQLITE_IOERR.
func ioFault() error {
	return &storageError{err: errors.New("injected read fault"), reason: "an I/O error",
		advice: "check the disk of the service's data directory (the service log has the error)"}
}

// readFault fails, with ioFault, the statements of c whose SQL contains
// fragment and whose arguments include arg (any arguments when arg is ""),
// while on is set; hits counts them.
type readFault struct {
	on   atomic.Bool
	hits atomic.Int64
}

func failMatching(c *cachedDB, fragment, arg string) *readFault {
	f := &readFault{}
	c.faults.set(func(query string, args []any) error {
		if !f.on.Load() || !strings.Contains(query, fragment) || (arg != "" && !slices.Contains(args, any(arg))) {
			return nil
		}
		f.hits.Add(1)
		return ioFault()
	})
	return f
}

// activitiesOfType lists the organization's activities of type typ, as alice
// sees them.
func activitiesOfType(t *testing.T, e *testEnv, typ string) []api.Activity {
	t.Helper()
	acts, err := e.clients["alice"].ListActivities(ctxT(t), api.ListActivitiesOptions{Types: []string{typ}})
	if err != nil {
		t.Fatal(err)
	}
	return acts
}

// wantStorageFailed checks that r is the documented 503 of a write that
// recorded nothing, saying why and what to do.
func wantStorageFailed(t *testing.T, r reply) {
	t.Helper()
	if r.status == 200 {
		t.Fatalf("a read error was answered as the request's outcome: activity %s, %s", r.act.Status, r.body)
	}
	wantError(t, r, 503, api.CodeUnavailable, "STORAGE_FAILED")
	for _, want := range []string{"I/O error", "nothing of this request was recorded", "send the same request again"} {
		if !strings.Contains(r.err.Message, want) {
			t.Errorf("the 503 does not say %q: %s", want, r.err.Message)
		}
	}
}

// A read error while the read-only session is made is the service's
// failure, not the activity's: the vote that completes it is told nothing
// was recorded (503 STORAGE_FAILED), the activity is not FAILED with the I/O
// error as its reason, and the same vote completes it once the disk reads
// again, as the one activity of its kind.
func TestReadFaultMakingReadOnlySessionIsNotTheActivitysFailure(t *testing.T) {
	e := newEnvWith(t, envOptions{threshold: 2, dataDir: t.TempDir()})
	ctx := ctxT(t)
	pending, err := e.clients["alice"].CreateReadOnlySession(ctx)
	if err != nil || pending.Status != api.StatusConsensusNeeded {
		t.Fatalf("alice's session: %v %+v, want it waiting for consensus", err, pending)
	}
	// Inside bob's write transaction only, the read of alice (the requester)
	// that making her session needs: bob's vote itself reads bob.
	f := failMatching(e.srv.db.write, "FROM users WHERE id", e.user("alice"))
	e.srv.db.cache.invalidate(changedAuth) // alice must be read, not remembered
	vote := e.body(api.TypeApproveActivity, api.ApproveActivityParams{Fingerprint: pending.Fingerprint}, nil)
	path := e.submitPath("approve_activity")

	f.on.Store(true)
	r := e.post(path, vote, e.keys["bob"])
	f.on.Store(false)
	if f.hits.Load() == 0 {
		t.Fatalf("the fault never fired (HTTP %d %s): the test no longer reaches the requester's lookup", r.status, r.body)
	}
	wantStorageFailed(t, r)
	acts := activitiesOfType(t, e, api.TypeCreateReadOnlySession)
	if len(acts) != 1 || acts[0].Status != api.StatusConsensusNeeded || len(acts[0].Votes) != len(pending.Votes) {
		t.Fatalf("after the refused vote: %+v; want alice's session waiting for consensus with only her vote", acts)
	}

	again := e.post(path, vote, e.keys["bob"])
	if again.status != 200 || again.act.Status != api.StatusCompleted || again.act.Result.CreateReadOnlySessionResult == nil {
		t.Fatalf("the same vote once the disk reads again: HTTP %d %s", again.status, again.body)
	}
	acts = activitiesOfType(t, e, api.TypeCreateReadOnlySession)
	if len(acts) != 1 || acts[0].ID != pending.ID || acts[0].Status != api.StatusCompleted {
		t.Fatalf("after the retry: %+v; want alice's session, completed, alone", acts)
	}
}
