package server

import (
	"bytes"
	"database/sql"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
)

// schemaWithRemovableKey is a data directory at schema 20 where one P-256
// key, a, is x's API key, stored uncompressed, and z's passkey: the upgrade
// (migration 21) removes x's API key k-x.
func schemaWithRemovableKey(t *testing.T) (dir string, a *keys.SoftAuthenticator) {
	t.Helper()
	dir = t.TempDir()
	db := openSchema(t, dir, migrationCanonicalAPIKeys-1)
	a, err := keys.NewSoftAuthenticator("")
	if err != nil {
		t.Fatal(err)
	}
	execStatements(t, db, []statement{
		{`INSERT INTO organizations(id, name, root_threshold, root_user_ids, created_ns) VALUES ('o', 'Old', 2, '["x","z"]', 1)`, nil},
		{`INSERT INTO users(id, org_id, name, email, seq, created_ns, updated_ns) VALUES ('x', 'o', 'x', '', 1, 1, 1), ('z', 'o', 'z', '', 2, 1, 1)`, nil},
		{`INSERT INTO api_keys(id, org_id, user_id, name, public_key, credential_type, created_ns, updated_ns) VALUES ('k-x', 'o', 'x', 'old', ?, ?, 1, 1)`,
			[]any{uncompressedP256(t, a.PublicKeyHex()), api.CredentialAPIKeyP256}},
		{`INSERT INTO authenticators(id, org_id, user_id, name, credential_id, public_key, created_ns, updated_ns) VALUES ('a-z', 'o', 'z', 'pk', ?, ?, 2, 2)`,
			[]any{a.CredentialID(), a.PublicKeyHex()}},
	})
	return dir, a
}

// apiKeyStored reports whether the database file at path holds API key id.
func apiKeyStored(t *testing.T, path, id string) bool {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM api_keys WHERE id = ?`, id).Scan(&n); err != nil {
		t.Fatalf("read %s: %v", path, err)
	}
	return n > 0
}

// An upgrade that removes a credential runs on what may be the operator's
// only copy of vigil.db: before it, vigil writes the database as it was
// next to it, named with its schema version and the time, owner-only. The
// copy opens, is at the old schema and holds the API key the upgrade
// removed from the live database; the log names it beside the removal.
func TestUpgradeBacksUpTheDatabaseBeforeRemovingACredential(t *testing.T) {
	dir, _ := schemaWithRemovableKey(t)
	at := time.Date(2026, 11, 30, 16, 36, 6, 123456789, time.UTC)
	logs := &logBuffer{}
	srv, err := Open(Config{DataDir: dir, Now: func() time.Time { return at }, Logger: slog.New(slog.NewTextHandler(logs, nil))})
	if err != nil {
		t.Fatalf("open a schema-20 database holding one key as x's API key and z's passkey: %v", err)
	}
	t.Cleanup(func() { srv.Close() })
	live := filepath.Join(dir, DatabaseFile)
	backup := live + ".schema-20.20261130T163606.123456789Z.bak"
	fi, err := os.Stat(backup)
	if err != nil {
		t.Fatalf("no backup of the schema-20 database next to it after an upgrade that removed a credential: %v", err)
	}
	if perm := fi.Mode().Perm(); perm != 0o600 {
		t.Errorf("the backup, which holds the service's private keys, has mode %v, want 0600", perm)
	}
	if apiKeyStored(t, live, "k-x") {
		t.Fatal("the upgrade did not remove x's API key k-x: the test no longer exercises a removal")
	}
	if !apiKeyStored(t, backup, "k-x") {
		t.Error("the backup does not hold x's API key k-x, which the upgrade removed")
	}
	b, err := sql.Open("sqlite", "file:"+backup+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	var v int
	if err := b.QueryRow(`SELECT MAX(version) FROM schema_migrations`).Scan(&v); err != nil || v != migrationCanonicalAPIKeys-1 {
		t.Errorf("the backup's schema version: %d, %v; want %d, the version before the upgrade", v, err, migrationCanonicalAPIKeys-1)
	}
	line := removalWarning(logs.String(), "k-x")
	if !strings.Contains(line, "backup="+backup) {
		t.Errorf("the removal of k-x is not logged naming the backup %s:\n%s", backup, logs.String())
	}
}

// The backup is never written over an existing file, and the upgrade does
// not run without it: the open fails saying why and what to do, and the
// database and the file in the way are as they were.
func TestUpgradeDoesNotRunWithoutItsBackup(t *testing.T) {
	dir, _ := schemaWithRemovableKey(t)
	at := time.Date(2026, 11, 30, 16, 36, 6, 0, time.UTC)
	live := filepath.Join(dir, DatabaseFile)
	inTheWay := live + ".schema-20.20261130T163606.000000000Z.bak"
	earlier := []byte("an earlier backup")
	if err := os.WriteFile(inTheWay, earlier, 0o600); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(live)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := Open(Config{DataDir: dir, Now: func() time.Time { return at }})
	if err == nil {
		srv.Close()
		t.Fatal("the upgrade ran though its backup could not be written")
	}
	for _, want := range []string{"back up", inTheWay, "the upgrade did not run", "database is as it was", "start vigil again"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the refusal does not say %q: %v", want, err)
		}
	}
	after, err := os.ReadFile(live)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Error("vigil.db changed though the upgrade was refused")
	}
	if got, _ := os.ReadFile(inTheWay); !bytes.Equal(got, earlier) {
		t.Errorf("the file in the backup's way was overwritten: %q", got)
	}
	if v := schemaVersion(t, dir); v != migrationCanonicalAPIKeys-1 || !apiKeyStored(t, live, "k-x") {
		t.Errorf("after the refusal the database is at schema %d, k-x stored: %v; want as it was", v, apiKeyStored(t, live, "k-x"))
	}
}

// A failed upgrade rolls back whole: the database is as it was, and so the
// copy written before it is a second copy of what is still there. It is
// removed, or a service manager restarting vigil after each refusal would
// write a whole copy of the database per start until the disk is full.
func TestFailedUpgradeLeavesNoBackupBehind(t *testing.T) {
	dir := oldDataDir(t, 9, `CREATE TABLE webhook_outbox(x)`)
	for i := range 3 {
		at := time.Date(2026, 11, 30, 16, 36, i, 0, time.UTC)
		srv, err := Open(Config{DataDir: dir, Now: func() time.Time { return at }})
		if err == nil {
			srv.Close()
			t.Fatal("the upgrade succeeded with a table in its way")
		}
		if !strings.Contains(err.Error(), "rolled back whole") {
			t.Fatalf("start %d failed otherwise than by a rolled back upgrade: %v", i+1, err)
		}
	}
	left, err := filepath.Glob(filepath.Join(dir, DatabaseFile+".schema-*.bak"))
	if err != nil {
		t.Fatal(err)
	}
	if len(left) != 0 {
		t.Errorf("three starts whose upgrade rolled back left %d copies of the unchanged database: %v", len(left), left)
	}
}
