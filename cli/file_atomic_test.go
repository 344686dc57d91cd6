package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A private file written through a link that points at a file others may
// read (0644) is written private: a config holding secrets never becomes
// readable by others through a rewrite.
func TestWriteFileAtomicKeepsPrivateFilesPrivate(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(target, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chmod(target, 0o644)
	link := filepath.Join(dir, "link.toml")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if err := writeFileAtomic(link, []byte("secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(target)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm()&0o077 != 0 {
		t.Errorf("a private write left %s readable by others: %v", target, fi.Mode())
	}
	if got, _ := os.ReadFile(target); string(got) != "secret" {
		t.Errorf("the link's target holds %q, not what was written", got)
	}
}

// A link to a file not there yet creates that file, as os.WriteFile does,
// and stays a link.
func TestWriteFileAtomicThroughDanglingLinkCreatesItsTarget(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "latest.json")
	if err := os.Symlink("dated.json", link); err != nil {
		t.Fatal(err)
	}
	if err := writeFileAtomic(link, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(filepath.Join(dir, "dated.json")); err != nil || string(got) != "new" {
		t.Errorf("the link's target holds %q (%v)", got, err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced by a file (%v)", err)
	}
}

// A directory is refused with an error that says so, and is left alone.
func TestWriteFileAtomicRefusesADirectory(t *testing.T) {
	dir := t.TempDir()
	err := writeFileAtomic(dir, []byte("x"), 0o644)
	if err == nil || !strings.Contains(err.Error(), "directory") {
		t.Fatalf("writing over a directory: %v, want an error naming it a directory", err)
	}
	if fi, serr := os.Stat(dir); serr != nil || !fi.IsDir() {
		t.Errorf("the directory is gone (%v)", serr)
	}
}

// A link loop is refused with an error, not followed for ever.
func TestWriteFileAtomicRefusesALinkLoop(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	os.Symlink(b, a)
	os.Symlink(a, b)
	if err := writeFileAtomic(a, []byte("x"), 0o644); err == nil {
		t.Fatal("a link loop was written through")
	}
}
