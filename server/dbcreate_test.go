package server

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/keys"
)

// A vigil.db cut to 0 bytes (`> vigil.db`, a failed restore) is refused at
// open like any damaged file, rather than served as a blank service; it is
// left as it was.
func TestEmptyDatabaseIsRefusedAtOpen(t *testing.T) {
	dir := t.TempDir()
	srv := openWithOrganization(t, dir, "Kept")
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, DatabaseFile)
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	again, err := Open(Config{DataDir: dir})
	if err == nil {
		again.Close()
		t.Fatal("Open accepted a vigil.db truncated to 0 bytes")
	}
	for _, want := range []string{path, "empty", "restore it from a backup", "move it", "loses the organizations"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error does not say %q: %v", want, err)
		}
	}
	if fi, err := os.Stat(path); err != nil || fi.Size() != 0 {
		t.Errorf("the empty file was changed: %v %v", fi, err)
	}
}

// A creation of the database cut short (vigil stopped while building it)
// leaves vigil.db.creating, not an empty vigil.db: the next start builds the
// database again and serves it, and restarts keep what was written.
func TestInterruptedCreationStartsAgain(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, DatabaseFile)
	if err := os.WriteFile(path+creatingSuffix, []byte("half a database"), 0o600); err != nil {
		t.Fatal(err)
	}
	srv, err := Open(Config{DataDir: dir})
	if err != nil {
		t.Fatalf("Open after an interrupted creation: %v", err)
	}
	k, err := keys.Generate(keys.SchemeP256)
	if err != nil {
		t.Fatal(err)
	}
	org, err := srv.CreateOrganization(context.Background(), "Fresh", 1, []UserSpec{{Name: "a", Root: true, APIKeys: []APIKeySpec{{PublicKey: k.PublicKeyHex()}}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path + creatingSuffix); !os.IsNotExist(err) {
		t.Errorf("%s%s is still there: %v", DatabaseFile, creatingSuffix, err)
	}
	again, err := Open(Config{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if _, err := loadOrg(context.Background(), again.db.read, org.ID); err != nil {
		t.Fatalf("the organization written after the interrupted creation is gone: %v", err)
	}
}

// A vigil.db-wal left without its vigil.db (the database moved away, its WAL
// not) is refused: SQLite would replay it into the new database it found it
// beside, another database's pages.
func TestStrayWALWithoutItsDatabaseIsRefused(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, DatabaseFile)
	srv := openWithOrganization(t, dir, "Moved away")
	wal, err := os.ReadFile(path + "-wal") // the changes not yet checkpointed
	if err != nil || len(wal) == 0 {
		t.Fatalf("no WAL while the service runs: %d bytes, %v", len(wal), err)
	}
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{path, path + "-wal", path + "-shm"} {
		if err := os.Remove(f); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(path+"-wal", wal, 0o600); err != nil {
		t.Fatal(err)
	}
	again, err := Open(Config{DataDir: dir})
	if err == nil {
		again.Close()
		t.Fatal("Open created a database beside another database's WAL")
	}
	for _, want := range []string{path + "-wal", "without", "put back", "start an empty service"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error does not say %q: %v", want, err)
		}
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("a vigil.db was created: %v", err)
	}
}

// openWithOrganization opens the service on dir and creates an organization
// named name in it: a database with rows to lose.
func openWithOrganization(t *testing.T, dir, name string) *Server {
	t.Helper()
	srv, err := Open(Config{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	k, err := keys.Generate(keys.SchemeP256)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := srv.CreateOrganization(context.Background(), name, 1, []UserSpec{{Name: "a", Root: true, APIKeys: []APIKeySpec{{PublicKey: k.PublicKeyHex()}}}}); err != nil {
		t.Fatal(err)
	}
	return srv
}
