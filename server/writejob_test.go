package server

import (
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
	present := func(key string) bool {
		t.Helper()
		_, ok, err := getState(ctx, e.srv.db.read, key)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
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
