package server

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A database the service cannot write when it must upgrade the schema is
// told as such, with what to do, and not as a request that was not recorded.
// (As root every file is writable, so the read-only database is one SQLite
// opened read-only, which fails the same way.)
func TestReadOnlyDatabaseAtUpgradeSaysWhatToDo(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), DatabaseFile)
	rw, err := sql.Open("sqlite", "file:"+uriPath(path))
	if err != nil {
		t.Fatal(err)
	}
	if err := migrateUpTo(ctx, rw, 16); err != nil {
		t.Fatal(err)
	}
	rw.Close()
	ro, err := sql.Open("sqlite", "file:"+uriPath(path)+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	migrateErr := migrate(ctx, ro)
	if migrateErr == nil {
		t.Fatal("migrated a read-only database")
	}
	msg := migrationFailure(path, migrateErr).Error()
	for _, want := range []string{path, "read-only", "make the data directory and " + DatabaseFile + " writable"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %q: %s", want, msg)
		}
	}
	if strings.Contains(msg, "recorded") {
		t.Errorf("message speaks of a request at start-up: %s", msg)
	}
}

// Whatever the service could not write while opening its data says what to
// do (the advice), and not that "nothing of it was recorded".
func TestStorageFailureAtStartupGivesAdvice(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), DatabaseFile)
	rw, err := sql.Open("sqlite", "file:"+uriPath(path))
	if err != nil {
		t.Fatal(err)
	}
	defer rw.Close()
	if _, err := rw.ExecContext(ctx, `CREATE TABLE t(x)`); err != nil {
		t.Fatal(err)
	}
	ro, err := sql.Open("sqlite", "file:"+uriPath(path)+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	_, writeErr := ro.ExecContext(ctx, `INSERT INTO t VALUES (1)`)
	se := asStorageError(writeErr, false)
	if se == nil {
		t.Fatalf("a write to a read-only database is not a storage failure: %v", writeErr)
	}
	msg := atStartup(se).Error()
	if !strings.Contains(msg, se.advice) || strings.Contains(msg, "recorded") {
		t.Errorf("start-up message: %s; want its advice (%s) and no word of a record", msg, se.advice)
	}
}

// The lock file that cannot be created is named once, with what to do.
func TestUncreatableLockFileSaysWhatToDo(t *testing.T) {
	dir := t.TempDir()
	// A directory in the lock file's place fails its creation even as root.
	if err := os.Mkdir(filepath.Join(dir, LockFile), 0o700); err != nil {
		t.Fatal(err)
	}
	_, err := LockDataDir(dir)
	if err == nil {
		t.Fatal("locked a data directory whose lock file cannot be created")
	}
	msg := err.Error()
	lock := filepath.Join(dir, LockFile)
	if n := strings.Count(msg, lock); n != 1 {
		t.Errorf("message names %s %d times, want once: %s", lock, n, msg)
	}
	if !strings.Contains(msg, "writable by the user running vigil") {
		t.Errorf("message gives no advice: %s", msg)
	}
}
