package server

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// backupsIn is the names of the files in dir that are named as a backup of
// its vigil.db, finished (.bak) or not (.bak.partial).
func backupsIn(t *testing.T, dir string) (finished, partial []string) {
	t.Helper()
	var err error
	if finished, err = filepath.Glob(filepath.Join(dir, DatabaseFile+".schema-*.bak")); err != nil {
		t.Fatal(err)
	}
	if partial, err = filepath.Glob(filepath.Join(dir, DatabaseFile+".schema-*.bak.partial")); err != nil {
		t.Fatal(err)
	}
	return finished, partial
}

// A vigil killed while it copied the database before an upgrade leaves the
// copy cut short under the name it was being written to, which is never a
// backup's: the next start removes it, and only it, and writes a whole
// backup of its own. Files of other databases or named otherwise stay.
func TestStartRemovesAnUnfinishedBackupOfItsDatabase(t *testing.T) {
	dir, _ := schemaWithRemovableKey(t)
	live := filepath.Join(dir, DatabaseFile)
	unfinished := live + ".schema-20.20261130T163605.000000000Z.bak.partial"
	kept := []string{
		filepath.Join(dir, "other.db.schema-20.20261130T163605.000000000Z.bak.partial"),
		live + ".schema-20.yesterday.bak.partial",
		live + ".schema-20.20261130T163605.000000000Z.bak.partial.mine",
	}
	for _, f := range append([]string{unfinished}, kept...) {
		if err := os.WriteFile(f, []byte("SQLite format 3\x00 and then nothing"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	at := time.Date(2026, 11, 30, 16, 36, 6, 0, time.UTC)
	srv, err := Open(Config{DataDir: dir, Now: func() time.Time { return at }})
	if err != nil {
		t.Fatalf("start beside an unfinished backup: %v", err)
	}
	srv.Close()
	if _, err := os.Stat(unfinished); err == nil {
		t.Errorf("the unfinished backup %s is still there after a start", unfinished)
	}
	for _, f := range kept {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("%s, no unfinished backup of this vigil.db, was removed: %v", f, err)
		}
	}
	finished, _ := backupsIn(t, dir)
	want := live + ".schema-20.20261130T163606.000000000Z.bak"
	if len(finished) != 1 || finished[0] != want || !apiKeyStored(t, want, "k-x") {
		t.Errorf("backups after the start: %v, want only %s holding k-x", finished, want)
	}
}

// A disk that fills while the database is copied refuses the start, saying
// why and what to do; vigil.db is as it was and no copy is left behind.
// Once there is room, the next start writes exactly one whole backup.
// It needs a small file system of its own: a tmpfs, which root can mount.
func TestFullDiskDuringTheBackupRefusesTheStart(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mounting a small tmpfs needs root")
	}
	src, _ := schemaWithRemovableKey(t)
	// Some bulk, so that the copy fails midway rather than at its first page.
	db := openSchema(t, src, migrationCanonicalAPIKeys-1)
	execAll(t, db, `CREATE TABLE bulk(b BLOB)`, `INSERT INTO bulk SELECT randomblob(1 << 20) FROM (SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3)`)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	image, err := os.ReadFile(filepath.Join(src, DatabaseFile))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	mount := func(opts string) {
		t.Helper()
		if out, err := exec.Command("mount", "-t", "tmpfs", "-o", opts, "none", dir).CombinedOutput(); err != nil {
			t.Fatalf("mount -o %s: %v: %s", opts, err, out)
		}
	}
	mount(fmt.Sprintf("mode=0700,size=%d", len(image)+len(image)/2))
	t.Cleanup(func() { exec.Command("umount", dir).Run() })
	live := filepath.Join(dir, DatabaseFile)
	if err := os.WriteFile(live, image, 0o600); err != nil {
		t.Fatal(err)
	}

	at := time.Date(2026, 11, 30, 16, 36, 6, 0, time.UTC)
	srv, err := Open(Config{DataDir: dir, Now: func() time.Time { return at }})
	if err == nil {
		srv.Close()
		t.Fatal("the upgrade ran though its backup did not fit on the disk")
	}
	for _, want := range []string{"back up", "the upgrade did not run", "database is as it was", "room for a copy", "start vigil again"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the refusal does not say %q: %v", want, err)
		}
	}
	if after, err := os.ReadFile(live); err != nil || !bytes.Equal(after, image) {
		t.Errorf("vigil.db changed though the upgrade was refused (%v)", err)
	}
	if finished, partial := backupsIn(t, dir); len(finished)+len(partial) != 0 {
		t.Errorf("a backup that did not fit left %v %v", finished, partial)
	}

	mount(fmt.Sprintf("remount,size=%d", 4*len(image)))
	srv, err = Open(Config{DataDir: dir, Now: func() time.Time { return at.Add(time.Second) }})
	if err != nil {
		t.Fatalf("start with room for the backup: %v", err)
	}
	srv.Close()
	finished, partial := backupsIn(t, dir)
	if len(finished) != 1 || len(partial) != 0 || !apiKeyStored(t, finished[0], "k-x") {
		t.Errorf("after a start with room: backups %v, unfinished %v; want one holding k-x", finished, partial)
	}
}
