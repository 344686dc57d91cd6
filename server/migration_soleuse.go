package server

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Builds older than the data-directory lock (schema ≤ 9) take no vigil.lock,
// so LockDataDir cannot see one of them still serving the directory. SQLite
// can: in WAL mode every connection that has read the database keeps a
// shared lock on the file until it closes, so an exclusive lock is refused
// while any other program has vigil.db open, busy or idle. Every open takes
// it before reading the schema version and holds it until the upgrade has
// committed, so no other program can start on the file meanwhile either.

// soleUseBusyTimeout is how long the check waits for another program's lock:
// one that merely has the file open never lets go, so a long wait would only
// delay the refusal.
const soleUseBusyTimeout = 250 // milliseconds

// errDatabaseInUse is the refusal to open a database another program has open.
var errDatabaseInUse = errors.New(DatabaseFile + " is open in another program (an older vigil serve, which takes no " + LockFile +
	"?): stop it, then start this vigil again")

// holdSoleUse takes conn's database file for itself, refusing with
// errDatabaseInUse while another connection has it open, and returns what
// gives it back (normal locking, conn's busy timeout as it was). An
// in-memory database has no other user: nothing is taken.
func holdSoleUse(ctx context.Context, conn *sql.Conn) (release func() error, err error) {
	nothing := func() error { return nil }
	var file string
	if err := conn.QueryRowContext(ctx, `SELECT file FROM pragma_database_list WHERE name = 'main'`).Scan(&file); err != nil {
		return nothing, fmt.Errorf("name the database file: %w", err)
	}
	if file == "" {
		return nothing, nil
	}
	var busyTimeout int
	if err := conn.QueryRowContext(ctx, `PRAGMA busy_timeout`).Scan(&busyTimeout); err != nil {
		return nothing, fmt.Errorf("read busy timeout: %w", err)
	}
	// Whatever happens below, the connection goes back to the pool locking
	// normally and waiting as long as it did: setting locking_mode NORMAL
	// lets go of the file lock at the end of the next transaction, which the
	// empty write transaction is.
	release = func() error {
		bg := context.WithoutCancel(ctx)
		var errs []error
		for _, q := range []string{`PRAGMA locking_mode = NORMAL`, `BEGIN IMMEDIATE`, `ROLLBACK`, fmt.Sprintf(`PRAGMA busy_timeout = %d`, busyTimeout)} {
			if _, err := conn.ExecContext(bg, q); err != nil {
				errs = append(errs, fmt.Errorf("release %s: %s: %w", DatabaseFile, q, err))
			}
		}
		return errors.Join(errs...)
	}
	// On a failure the caller closes the database, so what release says
	// then does not matter: the failure is the news.
	for _, q := range []string{fmt.Sprintf(`PRAGMA busy_timeout = %d`, soleUseBusyTimeout), `PRAGMA locking_mode = EXCLUSIVE`} {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			release()
			return nothing, fmt.Errorf("take %s for this vigil: %w", DatabaseFile, err)
		}
	}
	// In EXCLUSIVE locking mode the file lock a write transaction takes is
	// kept after it ends, until release.
	if _, err := conn.ExecContext(ctx, `BEGIN EXCLUSIVE`); err != nil {
		release()
		if isLockBusy(err) {
			// %v: the refusal is this one, not a storage failure of SQLite's.
			return nothing, fmt.Errorf("%w (%v)", errDatabaseInUse, err)
		}
		return nothing, fmt.Errorf("take %s for this vigil: %w", DatabaseFile, err)
	}
	if _, err := conn.ExecContext(ctx, `ROLLBACK`); err != nil {
		release()
		return nothing, fmt.Errorf("take %s for this vigil: %w", DatabaseFile, err)
	}
	return release, nil
}

// isLockBusy is whether err is SQLite's refusal of a lock another
// connection holds.
func isLockBusy(err error) bool {
	var sqlErr *sqlite.Error
	if !errors.As(err, &sqlErr) {
		return false
	}
	code := sqlErr.Code() & 0xff
	return code == sqlite3.SQLITE_BUSY || code == sqlite3.SQLITE_LOCKED
}
