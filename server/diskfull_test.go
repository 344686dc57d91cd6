package server

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// limitPages caps the database at its current size plus extra pages on
// every writer connection (PRAGMA max_page_count): a full disk, as SQLite
// reports it (SQLITE_FULL).
func limitPages(t *testing.T, e *testEnv, extra int) {
	t.Helper()
	ctx := context.Background()
	var n int
	if err := e.srv.db.writeDB.QueryRowContext(ctx, `PRAGMA page_count`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	setMaxPages(t, e, n+extra)
}

func setMaxPages(t *testing.T, e *testEnv, max int) {
	t.Helper()
	onEveryWriterConn(t, e, `PRAGMA max_page_count = `+strconv.Itoa(max))
}

// onEveryWriterConn runs a per-connection statement (a pragma) on both
// connections of the writer's pool, held at once so that each gets it.
func onEveryWriterConn(t *testing.T, e *testEnv, stmt string) {
	t.Helper()
	ctx := context.Background()
	c1, err := e.srv.db.writeDB.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c1.Close()
	c2, err := e.srv.db.writeDB.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	for _, c := range []*sql.Conn{c1, c2} {
		if _, err := c.ExecContext(ctx, stmt); err != nil {
			t.Fatal(err)
		}
	}
}

// A full disk in the middle of a group commit: every caller told "failed"
// is told why (the disk is full, nothing was recorded), not "no such
// savepoint", and the replies match the database: a job is present exactly
// when its caller was told it succeeded.
func TestDiskFullMidBatchTellsEveryCallerWhy(t *testing.T) {
	e := newEnvWith(t, envOptions{threshold: 2, dataDir: t.TempDir()})
	ctx := ctxT(t)
	limitPages(t, e, 40)
	big := bytes.Repeat([]byte{7}, 16<<10)
	var wg sync.WaitGroup
	errs := make([]error, 64)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = e.srv.db.inTx(ctx, func(tx *txn) error {
				return putState(ctx, tx, "full-"+strconv.Itoa(i), big)
			})
		}()
	}
	wg.Wait()
	failed := 0
	for i, err := range errs {
		key := "full-" + strconv.Itoa(i)
		present := statePresent(t, e, key)
		if err != nil {
			failed++
			if msg := err.Error(); !strings.Contains(msg, "the disk is full") || !strings.Contains(msg, "nothing of it was recorded") {
				t.Errorf("%s: the error does not say the disk is full and nothing was recorded: %v", key, err)
			}
		}
		if (err == nil) != present {
			t.Errorf("%s: err %v, present %v", key, err, present)
		}
	}
	if failed == 0 {
		t.Fatal("no write failed: the test did not fill the disk")
	}
}

// Over HTTP, a submit the full disk refused is a 503 that says nothing was
// recorded, why, and what to do; the client does not call its outcome
// unknown; and the same request succeeds once there is space.
func TestSubmitOnFullDiskSaysNothingWasRecorded(t *testing.T) {
	e := newEnvWith(t, envOptions{threshold: 2, dataDir: t.TempDir()})
	ctx := ctxT(t)
	var pages int
	if err := e.srv.db.writeDB.QueryRowContext(ctx, `PRAGMA page_count`).Scan(&pages); err != nil {
		t.Fatal(err)
	}
	setMaxPages(t, e, pages)
	params := api.CreateSmartContractInterfaceParams{SmartContractAddress: "0xabc", SmartContractInterface: largeInterface(),
		Type: api.SmartContractInterfaceEthereum, Label: "too large for the disk"}
	_, err := e.clients["operator"].CreateSmartContractInterface(ctx, params)
	var apiErr *api.Error
	switch {
	case err == nil:
		t.Fatal("the submit succeeded on a full disk")
	case errors.Is(err, api.ErrOutcomeUnknown):
		t.Errorf("the client calls the outcome unknown, though the service said nothing was recorded: %v", err)
	case !errors.As(err, &apiErr) || apiErr.StatusCode != 503:
		t.Fatalf("err = %v, want a 503 reply", err)
	}
	for _, want := range []string{"disk is full", "nothing of this request was recorded", "free space", "send the same request again"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error does not say %q: %v", want, err)
		}
	}
	acts, err := e.clients["alice"].ListActivities(ctx, api.ListActivitiesOptions{Types: []string{api.TypeCreateSmartContractInterface}})
	if err != nil {
		t.Fatal(err)
	}
	if len(acts) != 0 {
		t.Fatalf("the refused submit left %d activities", len(acts))
	}

	setMaxPages(t, e, 1<<30)
	if _, err := e.clients["operator"].CreateSmartContractInterface(ctx, params); err != nil {
		t.Fatalf("the same request once there is space: %v", err)
	}
}
