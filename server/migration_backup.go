package server

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// Migrations 19 to 21 remove credentials, and a later one may remove or
// rewrite more: an upgrade runs on what is often the operator's only copy
// of vigil.db. So before any upgrade of a database that holds a schema, a
// consistent copy of it as it was is written next to it, and the upgrade
// does not run without one.

// backupBeforeUpgrade writes a copy of conn's database, at schema version
// from, next to it (VACUUM INTO: one consistent snapshot, WAL included)
// and returns its path; "" for an in-memory database, which has no file to
// lose. The name carries the schema version and the time (at); an existing
// file is never overwritten. conn must hold the database for itself and be
// outside a transaction (VACUUM cannot run inside one).
func backupBeforeUpgrade(ctx context.Context, conn *sql.Conn, from int, at time.Time) (string, error) {
	var file string
	if err := conn.QueryRowContext(ctx, `SELECT file FROM pragma_database_list WHERE name = 'main'`).Scan(&file); err != nil {
		return "", fmt.Errorf("name the database file to back up: %w", err)
	}
	if file == "" {
		return "", nil
	}
	path := fmt.Sprintf("%s.schema-%d.%s.bak", file, from, at.UTC().Format("20060102T150405.000000000Z"))
	if err := writeBackup(ctx, conn, path); err != nil {
		return "", fmt.Errorf("back up %s before upgrading its schema from version %d: %w; the upgrade did not run and the database is as it was: "+
			"make its directory writable with room for a copy of it, then start vigil again", file, from, err)
	}
	return path, nil
}

// writeBackup creates path (0600, refusing an existing file) and copies the
// database into it, synced; a copy that fails is removed.
func writeBackup(ctx context.Context, conn *sql.Conn, path string) (err error) {
	// Created here, not by SQLite: owner-only from the first byte, for it
	// holds the service's private keys as vigil.db does, and O_EXCL keeps
	// an existing file (an earlier backup) as it is.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return errors.Join(err, os.Remove(path))
	}
	defer func() {
		if err != nil {
			err = errors.Join(err, os.Remove(path))
		}
	}()
	// VACUUM INTO accepts an empty file as its target.
	if _, err := conn.ExecContext(ctx, `VACUUM INTO ?`, path); err != nil {
		return fmt.Errorf("copy into %s: %w", path, err)
	}
	// VACUUM INTO does not sync what it wrote: the copy must survive a crash
	// during the upgrade that follows.
	f, err = os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("sync %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return err
	}
	syncDir(filepath.Dir(path))
	return nil
}
