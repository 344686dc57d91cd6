package server

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// A start takes the group's and others' permissions off vigil.db (it holds
// private keys), and adds none: a vigil.db made read-only stays read-only.
func TestStartOnlyRemovesPermissionsFromTheDatabase(t *testing.T) {
	for _, tc := range []struct {
		before, after fs.FileMode
	}{
		{0o400, 0o400},
		{0o644, 0o600},
		{0o444, 0o400},
		{0o600, 0o600},
	} {
		t.Run(tc.before.String(), func(t *testing.T) {
			dir := t.TempDir()
			srv, err := Open(Config{DataDir: dir})
			if err != nil {
				t.Fatal(err)
			}
			if err := srv.Close(); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, DatabaseFile)
			if err := os.Chmod(path, tc.before); err != nil {
				t.Fatal(err)
			}
			srv, err = Open(Config{DataDir: dir})
			if err == nil {
				defer srv.Close()
			}
			fi, serr := os.Stat(path)
			if serr != nil {
				t.Fatal(serr)
			}
			if got := fi.Mode().Perm(); got != tc.after {
				t.Fatalf("vigil.db was %v; after a start it is %v, want %v (Open: %v)", tc.before, got, tc.after, err)
			}
		})
	}
}
