package server

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Each service keeps caches that only its own writes empty: a second one on
// the same data directory would accept a key the first deleted. Open refuses
// it for as long as the first is open, and not a moment longer.
func TestOneServicePerDataDirectory(t *testing.T) {
	dir := t.TempDir()
	first, err := Open(Config{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	second, err := Open(Config{DataDir: dir})
	if err == nil {
		second.Close()
		first.Close()
		t.Fatal("a second service opened a data directory in use")
	}
	if !errors.Is(err, ErrDataDirInUse) || !strings.Contains(err.Error(), "this process") {
		t.Fatalf("second Open: %v; want ErrDataDirInUse naming the holder", err)
	}
	// The same directory by another path is the same directory.
	if _, err := Open(Config{DataDir: filepath.Join(dir, "..", filepath.Base(dir))}); !errors.Is(err, ErrDataDirInUse) {
		t.Fatalf("Open by another path: %v; want ErrDataDirInUse", err)
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	again, err := Open(Config{DataDir: dir})
	if err != nil {
		t.Fatalf("Open after the first service closed: %v", err)
	}
	again.Close()
}

// A caller that holds the lock across several Opens (the demo seeds, closes
// and opens again) passes it in; a lock on another directory is refused.
func TestOpenWithTheCallersLock(t *testing.T) {
	dir, other := t.TempDir(), t.TempDir()
	lock, err := LockDataDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Release()
	if _, err := Open(Config{DataDir: other, Lock: lock}); err == nil || !strings.Contains(err.Error(), "not this data directory") {
		t.Fatalf("Open of %s with the lock of %s: %v", other, dir, err)
	}
	for range 2 {
		srv, err := Open(Config{DataDir: dir, Lock: lock})
		if err != nil {
			t.Fatal(err)
		}
		if err := srv.Close(); err != nil {
			t.Fatal(err)
		}
	}
	// Closing the service left the caller's lock held.
	if _, err := Open(Config{DataDir: dir}); !errors.Is(err, ErrDataDirInUse) {
		t.Fatalf("Open without the lock while the caller holds it: %v", err)
	}
	if err := lock.Serving("http://127.0.0.1:8420", HolderServe); err != nil {
		t.Fatal(err)
	}
	if got := HolderURL(dir); got != "http://127.0.0.1:8420" {
		t.Fatalf("HolderURL = %q", got)
	}
	if url, kind := Holder(dir); url != "http://127.0.0.1:8420" || kind != HolderServe {
		t.Fatalf("Holder = %q, %q; want the URL and %q", url, kind, HolderServe)
	}
	b, err := os.ReadFile(filepath.Join(dir, LockFile))
	// An older vigil joining reads the first line only: "pid URL".
	if first, _, _ := strings.Cut(string(b), "\n"); err != nil || first != strconv.Itoa(os.Getpid())+" http://127.0.0.1:8420" {
		t.Fatalf("lock file %q %v; want this process's pid and the URL alone on the first line", b, err)
	}
}

// A lock file an older vigil wrote ("pid URL", no kind) still gives its URL,
// and no kind; what follows the kind on its line is not taken for one.
func TestHolderReadsOlderLockFiles(t *testing.T) {
	for text, want := range map[string]HolderKind{
		"4242 http://127.0.0.1:8420\n":                HolderUnknown,
		"4242 http://127.0.0.1:8420":                  HolderUnknown,
		"4242 http://127.0.0.1:8420\nkind demo\n":     HolderDemo,
		"4242 http://127.0.0.1:8420\nkind serve\n":    HolderServe,
		"4242 http://127.0.0.1:8420\nkind \x1b[31m\n": HolderUnknown,
	} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, LockFile), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		if url, kind := Holder(dir); url != "http://127.0.0.1:8420" || kind != want {
			t.Errorf("lock file %q: Holder = %q, %q; want http://127.0.0.1:8420, %q", text, url, kind, want)
		}
	}
}

// A vigil.db that is not a SQLite database (overwritten, truncated) is
// refused with the file's name, what is wrong with it and what to do, and is
// left as it was.
func TestDamagedDatabaseSaysWhichFileAndWhatToDo(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, DatabaseFile)
	garbage := bytes.Repeat([]byte("this is not a database\n"), 400)
	if err := os.WriteFile(path, garbage, 0o600); err != nil {
		t.Fatal(err)
	}
	srv, err := Open(Config{DataDir: dir})
	if err == nil {
		srv.Close()
		t.Fatal("Open accepted a vigil.db that is not a database")
	}
	for _, want := range []string{path, "not a SQLite database or is damaged", "restore it from a backup", "move it", "loses the organizations"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error does not say %q: %v", want, err)
		}
	}
	if b, err := os.ReadFile(path); err != nil || !bytes.Equal(b, garbage) {
		t.Errorf("the damaged file was changed (err %v)", err)
	}
}

// A data directory that is a file, or inside one, is said to be one, with
// the fix: making the path writable, the advice for a directory that cannot
// be written, cannot help.
func TestDataDirThatIsAFileSaysSo(t *testing.T) {
	file := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{file, filepath.Join(file, "sub")} {
		lock, err := LockDataDir(dir)
		if err == nil {
			lock.Release()
			t.Fatalf("LockDataDir(%s) took a file as a directory", dir)
		}
		if msg := err.Error(); !strings.Contains(msg, "is, or is inside, a file, not a directory: pass --data with a directory") || strings.Contains(msg, "writable") {
			t.Errorf("LockDataDir(%s): %q; want it called a file, and --data with a directory asked for", dir, msg)
		}
	}
}
