package server

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"testing"
)

// TestFailedWriteJobLeavesNoTrace: a write job that fails (or panics) after
// writing leaves nothing behind, whether it ran alone in its transaction or
// shared a group commit with jobs that succeed, which keep their writes.
func TestFailedWriteJobLeavesNoTrace(t *testing.T) {
	e := newEnvWith(t, envOptions{threshold: 2, dataDir: t.TempDir()})
	ctx := ctxT(t)
	write := func(key string, fail, panics bool) error {
		return e.srv.db.inTx(ctx, func(tx *txn) error {
			if err := putState(ctx, tx, key, []byte{1}); err != nil {
				return err
			}
			if panics {
				panic("boom after writing " + key)
			}
			if fail {
				return errors.New("fails after writing " + key)
			}
			return nil
		})
	}
	present := func(key string) bool { t.Helper(); return statePresent(t, e, key) }
	if err := write("alone-fails", true, false); err == nil || present("alone-fails") {
		t.Fatalf("a failing job alone: err %v, its write kept: %v", err, present("alone-fails"))
	}
	if err := write("alone-panics", false, true); err == nil || present("alone-panics") {
		t.Fatalf("a panicking job alone: err %v, its write kept: %v", err, present("alone-panics"))
	}
	var wg sync.WaitGroup
	errs := make([]error, 32)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = write("batch-"+strconv.Itoa(i), i%2 == 1, false)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		key := "batch-" + strconv.Itoa(i)
		if fails := i%2 == 1; fails != (err != nil) || fails == present(key) {
			t.Errorf("%s: err %v, present %v", key, err, present(key))
		}
	}
	if err := write("after", false, false); err != nil || !present("after") {
		t.Fatalf("a write after the failures: %v", err)
	}
}

// TestIntentFailingAfterWritingRunsAgainCarefully: write jobs first run
// without savepoints; one that must undo part of its writes and carry on
// (errNeedsSavepoints, as execIntent returns) makes the writer undo the whole
// batch and run it again with savepoints. Every job's writes land exactly
// once, and the undone part stays undone.
func TestIntentFailingAfterWritingRunsAgainCarefully(t *testing.T) {
	e := newEnvWith(t, envOptions{threshold: 2, dataDir: t.TempDir()})
	ctx := ctxT(t)
	present := func(key string) bool { t.Helper(); return statePresent(t, e, key) }
	var wg sync.WaitGroup
	errs := make([]error, 16)
	var mu sync.Mutex
	runs := map[int][]bool{} // job -> careful, per run
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = e.srv.db.inTx(ctx, func(tx *txn) error {
				mu.Lock()
				runs[i] = append(runs[i], tx.careful)
				mu.Unlock()
				// A plain INSERT: a job whose writes landed twice would fail here.
				if _, err := tx.ExecContext(ctx, `INSERT INTO service_state(key, value) VALUES (?, ?)`, "job-"+strconv.Itoa(i), []byte{1}); err != nil {
					return err
				}
				if i%5 != 3 {
					return nil
				}
				if !tx.careful {
					return errNeedsSavepoints
				}
				if _, err := tx.ExecContext(ctx, `SAVEPOINT part`); err != nil {
					return err
				}
				if err := putState(ctx, tx, "undone-"+strconv.Itoa(i), []byte{1}); err != nil {
					return err
				}
				if _, err := tx.ExecContext(ctx, `ROLLBACK TO part`); err != nil {
					return err
				}
				_, err := tx.ExecContext(ctx, `RELEASE part`)
				return err
			})
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("job %d: %v", i, err)
		}
		if !present("job-" + strconv.Itoa(i)) {
			t.Errorf("job %d: its write is missing", i)
		}
		if present("undone-" + strconv.Itoa(i)) {
			t.Errorf("job %d: the part it undid was kept", i)
		}
		// A job runs at most twice; one that asked for savepoints finished
		// in a careful run (a job queued behind it in its batch may only have
		// run carefully).
		if r := runs[i]; len(r) == 0 || len(r) > 2 || (i%5 == 3 && !r[len(r)-1]) {
			t.Errorf("job %d ran %v (careful per run)", i, r)
		}
	}
}

// statePresent tells whether service_state holds key, as a reader sees it.
func statePresent(t *testing.T, e *testEnv, key string) bool {
	t.Helper()
	_, ok, err := getState(ctxT(t), e.srv.db.read, key)
	if err != nil {
		t.Fatal(err)
	}
	return ok
}

// TestCallerHangingUpDoesNotStopItsStartedWrite: once a write job has started
// in the writer, its caller cancelling does not stop its statements half way
// (an interrupted INSERT makes SQLite roll back the whole group commit, every
// other job's writes included); a job whose caller has gone before it starts
// is skipped and writes nothing.
func TestCallerHangingUpDoesNotStopItsStartedWrite(t *testing.T) {
	e := newEnvWith(t, envOptions{threshold: 2, dataDir: t.TempDir()})
	ctx := ctxT(t)
	present := func(key string) bool { t.Helper(); return statePresent(t, e, key) }

	jobCtx, hangUp := context.WithCancel(ctx)
	err := e.srv.db.inTx(jobCtx, func(tx *txn) error {
		if err := putState(jobCtx, tx, "first-half", []byte{1}); err != nil {
			return err
		}
		hangUp() // the client disconnects while its job runs
		return putState(jobCtx, tx, "second-half", []byte{1})
	})
	if err != nil || !present("first-half") || !present("second-half") {
		t.Fatalf("a started job whose caller hung up: err %v, first half written %v, second half %v; want the whole job committed",
			err, present("first-half"), present("second-half"))
	}

	gone, cancel := context.WithCancel(ctx)
	cancel()
	if err := e.srv.db.inTx(gone, func(tx *txn) error { return putState(gone, tx, "never", []byte{1}) }); !errors.Is(err, context.Canceled) || present("never") {
		t.Fatalf("a job whose caller left before it started: err %v, written %v; want context.Canceled and nothing written", err, present("never"))
	}
}
