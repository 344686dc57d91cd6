package server

import (
	"errors"
	"fmt"
	"net/http"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/vigil-console/vigil/api"
)

// storageError is a write the database could not take: the disk is full,
// an I/O error, a read-only data directory or file, no memory left, a
// damaged file. On these SQLite may roll back the whole transaction by
// itself (https://sqlite.org/lang_transaction.html, "Response To Errors
// Within A Transaction"), so none of its savepoints can be trusted: the
// writer undoes the whole batch and every caller in it gets this error.
type storageError struct {
	err    error // the job's own error, with SQLite's
	reason string
	advice string
	// committing: it was the COMMIT that failed. Frames of the transaction may
	// have reached the WAL before the failure and be replayed at the next
	// start, so whether it was recorded is not known.
	committing bool
	// startup: it failed while the service was opening its data, where no
	// request was at stake, so the text says what to do instead.
	startup bool
	// file is the database, named in the service log (not in replies): the
	// runBatch of a store on a file sets it.
	file string
}

func (e *storageError) Error() string {
	db := "the database"
	if e.file != "" {
		db += " " + e.file
	}
	if e.startup {
		return fmt.Sprintf("%s could not be written (%s): %v; %s", db, e.reason, e.err, e.advice)
	}
	what := "nothing of it was recorded"
	if e.committing {
		what = "it may or may not have been recorded"
	}
	return fmt.Sprintf("%s could not be written (%s); %s: %v", db, e.reason, what, e.err)
}

func (e *storageError) Unwrap() error { return e.err }

// reply is what the caller of a request gets. The 503 says the service is
// unavailable for writes; STORAGE_FAILED tells a client that nothing was
// recorded (api's outcome classes), COMMIT_FAILED that it cannot tell.
func (e *storageError) reply() *Error {
	if e.committing {
		return &Error{Status: http.StatusServiceUnavailable, Code: api.CodeUnavailable, ErrorCode: "COMMIT_FAILED",
			Message: fmt.Sprintf("the service could not commit its database (%s); this request may or may not have been recorded: %s, then send the same request again (the service answers with the activity if it was recorded)", e.reason, e.advice)}
	}
	return &Error{Status: http.StatusServiceUnavailable, Code: api.CodeUnavailable, ErrorCode: "STORAGE_FAILED",
		Message: fmt.Sprintf("the service could not write its database (%s); nothing of this request was recorded: %s, then send the same request again", e.reason, e.advice)}
}

// asStorageError returns err as a *storageError when SQLite failed for one
// of the reasons that may roll back a whole transaction, and nil otherwise.
func asStorageError(err error, committing bool) *storageError {
	if err == nil {
		return nil
	}
	var se *storageError
	if errors.As(err, &se) {
		return se
	}
	var sqlErr *sqlite.Error
	if !errors.As(err, &sqlErr) {
		return nil
	}
	e := &storageError{err: err, committing: committing}
	switch sqlErr.Code() & 0xff { // the primary code of an extended one
	case sqlite3.SQLITE_FULL:
		// A full disk fails the WAL write of the commit frame itself, the
		// transaction's last (powersafe overwrite: no padding follows it),
		// so the frame is short and no recovery replays it; SQLite rolls
		// the transaction back on any commit error but SQLITE_BUSY. Nothing
		// was recorded. (A failed fsync is an SQLITE_IOERR: unknown.)
		e.committing = false
		e.reason, e.advice = "the disk is full", "free space on the disk of the service's data directory"
	case sqlite3.SQLITE_IOERR:
		e.reason, e.advice = "an I/O error", "check the disk of the service's data directory (the service log has the error)"
	case sqlite3.SQLITE_READONLY:
		e.reason, e.advice = "the data directory or its database file is read-only", "make the data directory and vigil.db writable by the service"
	case sqlite3.SQLITE_NOMEM:
		e.reason, e.advice = "out of memory", "free memory on the service's machine"
	case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
		// Another process holds the write lock (a sqlite3 shell in BEGIN
		// IMMEDIATE, a hand-run UPDATE): the service is the only writer of
		// its own. The writer waited its busy_timeout; running the batch
		// again with savepoints would wait once more per job, so the whole
		// batch fails. A COMMIT that is busy did not happen (SQLite keeps
		// the transaction open, then the writer rolls it back): nothing was
		// recorded.
		e.committing = false
		e.reason, e.advice = "the database is locked by another process", "end that process's transaction on "+DatabaseFile+
			" (for example a sqlite3 shell left in BEGIN: ROLLBACK or quit it)"
	case sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB:
		e.reason, e.advice = "the database file is damaged", "stop the service and restore vigil.db from a backup"
	default:
		return nil
	}
	return e
}

// atStartup returns err, a failure to open the service's data, with a storage
// failure in it told as one of start-up (its reason and what to do). A
// failure of SQLite not yet classified, a migration's, is classified here.
func atStartup(err error) error {
	var se *storageError
	if errors.As(err, &se) {
		se.startup = true
		return err
	}
	if se := asStorageError(err, false); se != nil {
		se.startup = true
		return se
	}
	return err
}

// damagedDatabase is the error of opening the database at path when SQLite
// found that the file is not a database or is damaged (err), and nil for any
// other error.
func damagedDatabase(path string, err error) error {
	var sqlErr *sqlite.Error
	if !errors.As(err, &sqlErr) {
		return nil
	}
	switch sqlErr.Code() & 0xff {
	case sqlite3.SQLITE_NOTADB, sqlite3.SQLITE_CORRUPT:
		return fmt.Errorf("%s is not a SQLite database or is damaged (%w); %s", path, err, damagedAdvice)
	}
	return nil
}

// damagedAdvice is what to do with a vigil.db that holds no database vigil
// can open: damaged, or empty.
const damagedAdvice = "vigil leaves it as it is: restore it from a backup, or move it (with any " + DatabaseFile + "-wal and " +
	DatabaseFile + "-shm next to it) out of the data directory to start an empty service, which loses the organizations, keys and activities it held"
