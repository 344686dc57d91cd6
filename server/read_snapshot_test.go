package server

import (
	"strings"
	"sync/atomic"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// A status-filtered page (the console's Pending view) is read in one
// snapshot: a vote that completes a listed activity and is acknowledged
// while the page is being read must not make the page answer that activity
// as COMPLETED, a status the filter excludes.
func TestPendingListIsReadFromOneSnapshot(t *testing.T) {
	e := newEnvWith(t, envOptions{threshold: 2, dataDir: t.TempDir()})
	ctx := ctxT(t)
	pending, err := e.clients["alice"].CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "t1", UserIDs: []string{e.user("carol")}})
	if err != nil {
		t.Fatal(err)
	}
	if pending.Status != api.StatusConsensusNeeded {
		t.Fatalf("setup: status %s", pending.Status)
	}
	fired := bobApprovesWhenRowsAreRead(t, e, pending.Fingerprint)
	acts, err := e.clients["carol"].ListActivities(ctx, api.ListActivitiesOptions{Statuses: []string{api.StatusConsensusNeeded}})
	if err != nil {
		t.Fatal(err)
	}
	if !fired.Load() {
		t.Fatal("the hook did not run: the page's rows were not read")
	}
	for _, a := range acts {
		if a.Status != api.StatusConsensusNeeded {
			t.Errorf("list filtered by CONSENSUS_NEEDED returned activity %s with status %s", a.ID, a.Status)
		}
		if a.ID == pending.ID && len(a.Votes) != 1 {
			t.Errorf("pending activity %s listed with %d votes; the snapshot that picked it held only alice's", a.ID, len(a.Votes))
		}
	}
}

// The same with the page from the cache of listings and its rows read again
// (a row over maxCachedActivityBytes is never kept decoded, and the rows
// cache is emptied when full): a page cached before the vote must not be
// completed with rows read after it.
func TestCachedPendingPageIsNotMixedWithNewerRows(t *testing.T) {
	e := newEnvWith(t, envOptions{threshold: 2, dataDir: t.TempDir()})
	ctx := ctxT(t)
	pending, err := e.clients["alice"].CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "t1", UserIDs: []string{e.user("carol")}})
	if err != nil {
		t.Fatal(err)
	}
	opts := api.ListActivitiesOptions{Statuses: []string{api.StatusConsensusNeeded}}
	if _, err := e.clients["carol"].ListActivities(ctx, opts); err != nil { // caches the page
		t.Fatal(err)
	}
	c := e.srv.db.cache
	c.mu.Lock()
	c.rows = nil
	c.mu.Unlock()
	fired := bobApprovesWhenRowsAreRead(t, e, pending.Fingerprint)
	acts, err := e.clients["carol"].ListActivities(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	if !fired.Load() {
		t.Fatal("the hook did not run: the page's rows were not read")
	}
	for _, a := range acts {
		if a.Status != api.StatusConsensusNeeded {
			t.Errorf("list filtered by CONSENSUS_NEEDED returned activity %s with status %s", a.ID, a.Status)
		}
	}
}

// bobApprovesWhenRowsAreRead has bob's approval of fingerprint acknowledged
// between a listing's statements: just before its rows are read (once).
// The flag says whether it ran.
func bobApprovesWhenRowsAreRead(t *testing.T, e *testEnv, fingerprint string) *atomic.Bool {
	t.Helper()
	ctx := ctxT(t)
	var fired atomic.Bool
	t.Cleanup(func() { e.srv.db.read.faults.set(nil) })
	e.srv.db.read.faults.set(func(query string, args []any) error {
		if strings.Contains(query, "WHERE seq IN") && fired.CompareAndSwap(false, true) {
			if _, err := e.clients["bob"].ApproveActivity(ctx, fingerprint); err != nil {
				t.Errorf("approve: %v", err)
			}
		}
		return nil
	})
	return &fired
}
