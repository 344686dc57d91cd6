package server

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// creatingSuffix names the file in which a new database is built, next to
// the vigil.db it becomes.
const creatingSuffix = ".creating"

// prepareDatabaseFile makes sure path holds a database before openFile opens
// it: it creates one when there is none, and refuses an empty file.
//
// SQLite takes an empty file for a new database, so a vigil.db truncated to
// nothing (`> vigil.db`, a restore that failed, a crash of the disk) would be
// migrated and served as a blank service, its organizations silently gone.
// To tell that apart from a database vigil is still creating, vigil never
// creates vigil.db in place: it builds the database in vigil.db.creating and
// renames it to vigil.db only once its schema is committed. So a vigil.db
// that exists was complete when it appeared, and an empty one is damage,
// whenever vigil stopped; a creation cut short leaves only the .creating
// file, which the next start builds again.
func prepareDatabaseFile(ctx context.Context, path string) error {
	switch fi, err := os.Stat(path); {
	case errors.Is(err, os.ErrNotExist):
		// SQLite replays a WAL it finds beside a database into it, whichever
		// database the WAL was written for: a new database would take in
		// another's pages (resurrected or corrupt rows).
		if fi, err := os.Stat(path + "-wal"); err == nil && fi.Size() > 0 {
			return fmt.Errorf("%s-wal is in the data directory without %s: it holds the latest changes of a database that is no longer beside it (moved or deleted); "+
				"vigil will not create a new database over it: put back the %s it belongs to, or move %s-wal and %s-shm out of the data directory to start an empty service",
				path, DatabaseFile, DatabaseFile, DatabaseFile, DatabaseFile)
		}
		return createDatabase(ctx, path)
	case err != nil:
		return fmt.Errorf("open %s: %w", path, err)
	case fi.Size() == 0:
		return fmt.Errorf("%s is empty (0 bytes), so it holds no database: it was truncated or overwritten (vigil creates it whole); %s", path, damagedAdvice)
	}
	return nil
}

// createDatabase builds a database with the current schema in path's
// .creating file and renames it to path.
func createDatabase(ctx context.Context, path string) error {
	tmp := path + creatingSuffix
	// What an earlier creation cut short left behind.
	for _, f := range []string{tmp, tmp + "-journal", tmp + "-wal", tmp + "-shm"} {
		if err := os.Remove(f); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("create %s: remove %s: %w", path, f, err)
		}
	}
	// A rollback journal, not WAL: when Close returns, everything is in tmp
	// itself, and the rename moves the whole database. openFile switches
	// it to WAL.
	db, err := sql.Open("sqlite", "file:"+uriPath(tmp)+"?_pragma=journal_mode(DELETE)&_pragma=synchronous(FULL)&_pragma=busy_timeout(10000)")
	if err != nil {
		return fmt.Errorf("create %s: %w", tmp, err)
	}
	db.SetMaxOpenConns(1)
	if err := migrate(ctx, db); err != nil {
		db.Close()
		return fmt.Errorf("create %s: %w", tmp, err)
	}
	if err := db.Close(); err != nil {
		return fmt.Errorf("create %s: %w", tmp, err)
	}
	if err := os.Chmod(tmp, 0o600); err != nil {
		return fmt.Errorf("restrict %s: %w", tmp, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("create %s: %w", path, err)
	}
	syncDir(filepath.Dir(path))
	return nil
}

// syncDir asks for dir's entries (a rename) to be on disk; best effort, as
// some systems cannot sync a directory: a rename lost in a crash leaves the
// .creating file, built again at the next start.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}
