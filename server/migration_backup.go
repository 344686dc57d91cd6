package server

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
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
	file, err := databaseFile(ctx, conn)
	if err != nil || file == "" {
		return "", err
	}
	path := fmt.Sprintf("%s.schema-%d.%s.bak", file, from, at.UTC().Format(backupTimeLayout))
	if err := writeBackup(ctx, conn, path); err != nil {
		return "", fmt.Errorf("back up %s before upgrading its schema from version %d: %w; the upgrade did not run and the database is as it was: "+
			"make its directory writable with room for a copy of it, then start vigil again", file, from, err)
	}
	return path, nil
}

// backupTimeLayout is the time in a backup's name.
const backupTimeLayout = "20060102T150405.000000000Z"

// partialSuffix ends the name of a backup being written: it gets its final
// name only once whole and synced, so a copy cut short (vigil killed, the
// power lost) never looks like a backup to restore from.
const partialSuffix = ".partial"

// databaseFile is the file of conn's main database, "" in memory.
func databaseFile(ctx context.Context, conn *sql.Conn) (string, error) {
	var file string
	if err := conn.QueryRowContext(ctx, `SELECT file FROM pragma_database_list WHERE name = 'main'`).Scan(&file); err != nil {
		return "", fmt.Errorf("name the database file to back up: %w", err)
	}
	return file, nil
}

// writeBackup copies the database into path+partialSuffix (0600, refusing
// an existing file), syncs it and renames it to path, refusing when a file
// is there already; a copy that fails is removed.
func writeBackup(ctx context.Context, conn *sql.Conn, path string) (err error) {
	// An earlier backup of that name is kept as it is. (The rename below
	// would replace a file made there since by another program: the
	// database is vigil's alone while this runs, its backups' names too.)
	switch _, err := os.Lstat(path); {
	case err == nil:
		return fmt.Errorf("%s exists already: %w", path, fs.ErrExist)
	case !errors.Is(err, fs.ErrNotExist):
		return err
	}
	partial := path + partialSuffix
	// Created here, not by SQLite: owner-only from the first byte, for it
	// holds the service's private keys as vigil.db does, and O_EXCL keeps
	// an existing file as it is.
	f, err := os.OpenFile(partial, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return errors.Join(err, os.Remove(partial))
	}
	defer func() {
		if err != nil {
			err = errors.Join(err, ignoreMissing(os.Remove(partial)))
		}
	}()
	// VACUUM INTO accepts an empty file as its target.
	if _, err := conn.ExecContext(ctx, `VACUUM INTO ?`, partial); err != nil {
		return fmt.Errorf("copy into %s: %w", partial, err)
	}
	// VACUUM INTO does not sync what it wrote: the copy must survive a crash
	// during the upgrade that follows.
	f, err = os.OpenFile(partial, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("sync %s: %w", partial, err)
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(partial, path); err != nil {
		return fmt.Errorf("name the copy %s: %w", path, err)
	}
	// The new name must outlive a crash too, as the copy's bytes do.
	syncDir(filepath.Dir(path))
	return nil
}

// ignoreMissing is err, nil when it says the file is not there.
func ignoreMissing(err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// removePartialBackups removes what a backup cut short left beside
// conn's database file (writeBackup: vigil killed or the power lost while
// it copied): files named as a backup of this very file being written, and
// nothing else. conn must hold the database for itself, so that no other
// vigil is writing one. It says what it could not remove on log; a
// leftover takes room but is never taken for a backup.
func removePartialBackups(ctx context.Context, conn *sql.Conn, log *slog.Logger) {
	file, err := databaseFile(ctx, conn)
	if err != nil || file == "" {
		return
	}
	dir, base := filepath.Split(file)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	pattern := regexp.MustCompile(`^` + regexp.QuoteMeta(base) + `\.schema-[0-9]+\.[0-9]{8}T[0-9]{6}\.[0-9]{9}Z\.bak` + regexp.QuoteMeta(partialSuffix) + `$`)
	for _, e := range entries {
		if !e.Type().IsRegular() || !pattern.MatchString(e.Name()) {
			continue
		}
		path := filepath.Join(dir, e.Name())
		if err := ignoreMissing(os.Remove(path)); err != nil {
			log.Warn("could not remove an unfinished backup of the database, left by a vigil stopped while it wrote it; it is no backup: delete it", "file", path, "err", err)
			continue
		}
		log.Info("removed an unfinished backup of the database, left by a vigil stopped while it wrote it", "file", path)
	}
}
