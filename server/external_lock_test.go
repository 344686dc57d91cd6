package server

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/vigil-console/vigil/api"
)

// holdWriteLock takes vigil.db's write lock from another connection, as a
// sqlite3 shell in BEGIN IMMEDIATE does, until the returned func is called.
func holdWriteLock(t *testing.T, dir string) (release func()) {
	t.Helper()
	ctx := context.Background()
	ext, err := sql.Open("sqlite", "file:"+filepath.Join(dir, DatabaseFile))
	if err != nil {
		t.Fatal(err)
	}
	conn, err := ext.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(ctx, `BEGIN IMMEDIATE`); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	release = func() {
		once.Do(func() {
			conn.ExecContext(ctx, `ROLLBACK`)
			conn.Close()
			ext.Close()
		})
	}
	t.Cleanup(release)
	return release
}

// shortWriterBusyTimeout makes the writer give up on a held lock after a few
// milliseconds instead of writerBusyTimeout, so the test does not wait it out.
// It does not change what a busy write leads to.
func shortWriterBusyTimeout(t *testing.T, e *testEnv) {
	t.Helper()
	onEveryWriterConn(t, e, `PRAGMA busy_timeout = 20`)
}

func isBusy(err error) bool {
	var sqlErr *sqlite.Error
	return errors.As(err, &sqlErr) && sqlErr.Code()&0xff == sqlite3.SQLITE_BUSY
}

// Another process holding vigil.db's write lock fails a group commit as a
// whole after one busy wait: the batch is not run again with savepoints
// (which waited once more per job: 3 writes took 40 s), every caller is told
// the database is locked by another process and nothing was recorded, the
// service log names the file, and nothing of the batch is stored.
func TestExternalWriteLockFailsWholeBatchAfterOneWait(t *testing.T) {
	dir := t.TempDir()
	e := newEnvWith(t, envOptions{threshold: 2, dataDir: dir})
	ctx := ctxT(t)
	shortWriterBusyTimeout(t, e)
	release := holdWriteLock(t, dir)

	// The writer is kept busy by a job that waits until the three writes are
	// queued, so that they share the next transaction.
	const n = 3
	gate, started := make(chan struct{}), make(chan struct{})
	blocked := make(chan error, 1)
	go func() {
		blocked <- e.srv.db.inTx(ctx, func(tx *txn) error { close(started); <-gate; return nil })
	}()
	<-started
	var runs [n]atomic.Int32
	var busyWaits atomic.Int32
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = e.srv.db.inTx(ctx, func(tx *txn) error {
				runs[i].Add(1)
				err := putState(ctx, tx, "busy-"+strconv.Itoa(i), []byte("x"))
				if isBusy(err) {
					busyWaits.Add(1)
				}
				return err
			})
		}()
	}
	for len(e.srv.db.jobs) < n {
		runtime.Gosched()
	}
	close(gate)
	wg.Wait()
	if err := <-blocked; err != nil {
		t.Fatalf("the job that wrote nothing: %v", err)
	}

	if got := busyWaits.Load(); got > 1 {
		t.Errorf("the batch waited for the lock %d times, want once", got)
	}
	for i := range n {
		if r := runs[i].Load(); r > 1 {
			t.Errorf("write %d ran %d times: the batch was run again against a lock that is still held", i, r)
		}
		se := asStorageError(errs[i], false)
		if se == nil {
			t.Fatalf("write %d: %v, want a storage failure (not INTERNAL)", i, errs[i])
		}
		reply := se.reply()
		if reply.Status != 503 || reply.ErrorCode != "STORAGE_FAILED" {
			t.Errorf("write %d answered %d %s, want 503 STORAGE_FAILED", i, reply.Status, reply.ErrorCode)
		}
		for _, want := range []string{"locked by another process", "nothing of this request was recorded", "send the same request again"} {
			if !strings.Contains(reply.Message, want) {
				t.Errorf("write %d: the reply does not say %q: %s", i, want, reply.Message)
			}
		}
		if path := filepath.Join(dir, DatabaseFile); !strings.Contains(errs[i].Error(), path) {
			t.Errorf("write %d: the logged error does not name %s: %v", i, path, errs[i])
		}
	}

	release()
	for i := range n {
		if statePresent(t, e, "busy-"+strconv.Itoa(i)) {
			t.Errorf("busy-%d was stored, though its caller was told nothing was recorded", i)
		}
	}
	if err := e.srv.db.inTx(ctx, func(tx *txn) error { return putState(ctx, tx, "after", []byte("x")) }); err != nil {
		t.Fatalf("a write once the lock is released: %v", err)
	}
}

// Over HTTP, a submit refused because another process holds the lock is a
// 503 the client reports as nothing recorded (not an unknown outcome, not
// INTERNAL), and the same request succeeds once the lock is released.
func TestSubmitWhileAnotherProcessHoldsTheLock(t *testing.T) {
	dir := t.TempDir()
	logs := &logBuffer{}
	e := newEnvWith(t, envOptions{threshold: 2, dataDir: dir, log: logs})
	ctx := ctxT(t)
	shortWriterBusyTimeout(t, e)
	release := holdWriteLock(t, dir)

	params := api.CreateUserTagParams{UserTagName: "while-locked", UserIDs: []string{e.user("bob")}}
	_, err := e.clients["alice"].CreateUserTag(ctx, params)
	var apiErr *api.Error
	switch {
	case err == nil:
		t.Fatal("the submit succeeded while another process held the write lock")
	case errors.Is(err, api.ErrOutcomeUnknown):
		t.Errorf("the client calls the outcome unknown, though the service said nothing was recorded: %v", err)
	case !errors.As(err, &apiErr) || apiErr.StatusCode != 503:
		t.Fatalf("err = %v, want a 503 reply", err)
	}
	for _, want := range []string{"locked by another process", "nothing of this request was recorded", "send the same request again"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error does not say %q: %v", want, err)
		}
	}
	if log := logs.String(); !strings.Contains(log, filepath.Join(dir, DatabaseFile)) {
		t.Errorf("the service log does not name the locked file:\n%s", log)
	}

	release()
	if _, err := e.clients["alice"].CreateUserTag(ctx, params); err != nil {
		t.Fatalf("the same request once the lock is released: %v", err)
	}
}
