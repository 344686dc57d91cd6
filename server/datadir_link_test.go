//go:build unix

package server

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// keyFile writes a stand-in for a member's private key beside dir, for a
// planted lock file to lead to, and returns its path and content.
func keyFile(t *testing.T, root string) (path, content string) {
	t.Helper()
	path = filepath.Join(root, "ops.private")
	content = "a2d2f86925c0124ccb7fec5aed6b317818978cd49c8328d29af6e5ba534c4ec4\n"
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path, content
}

// A lock file name that is a symbolic link (planted, or left between runs)
// must not have LockDir truncate and write the pid into the file the link
// leads to: here a member's private key. It is refused, saying what to do.
func TestLockDirRefusesALockFileThatIsASymlink(t *testing.T) {
	root := t.TempDir()
	victim, key := keyFile(t, root)
	dir := filepath.Join(root, "data")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	lockPath := filepath.Join(dir, "listen.lock")
	if err := os.Symlink(victim, lockPath); err != nil {
		t.Fatal(err)
	}
	l, err := LockDir(dir, "listen.lock")
	if err == nil {
		l.Release()
	}
	if got, _ := os.ReadFile(victim); string(got) != key {
		t.Fatalf("LockDir (err=%v) wrote through the link: the key file now holds %q", err, got)
	}
	if err == nil || !strings.Contains(err.Error(), lockPath+" is a symbolic link") || !strings.Contains(err.Error(), "rm "+lockPath) {
		t.Fatalf("LockDir with %s a link: %v; want a refusal naming the link and saying to remove it", lockPath, err)
	}
}

// A lock file that is another name (hard link) of a key file: truncating it
// would empty the key just the same.
func TestLockDirRefusesALockFileWithOtherNames(t *testing.T) {
	root := t.TempDir()
	victim, key := keyFile(t, root)
	dir := filepath.Join(root, "data")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(victim, filepath.Join(dir, LockFile)); err != nil {
		t.Skipf("no hard links here: %v", err)
	}
	l, err := LockDataDir(dir)
	if err == nil {
		l.Release()
	}
	if got, _ := os.ReadFile(victim); string(got) != key {
		t.Fatalf("LockDataDir (err=%v) wrote into the lock file's other name: the key file now holds %q", err, got)
	}
	if err == nil || !strings.Contains(err.Error(), "hard links") {
		t.Fatalf("LockDataDir with %s a hard link: %v; want a refusal saying it has other names", LockFile, err)
	}
}

// A directory others may write is refused, as the keys store refuses its
// own: they could delete what vigil keeps there, or plant links. The advice
// given fixes it.
func TestLockDirRefusesADirectoryOthersMayWrite(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "save")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	l, err := LockDir(dir, "listen.lock")
	if err == nil {
		l.Release()
		t.Fatalf("LockDir took %s (mode 0777), which anyone may write", dir)
	}
	msg := err.Error()
	if !strings.Contains(msg, "directory "+dir+" is writable by others") || !strings.Contains(msg, "run: chmod o-w "+dir) {
		t.Fatalf("LockDir of %s (mode 0777): %v; want it refused naming who may write it and the chmod to run", dir, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "listen.lock")); !os.IsNotExist(err) {
		t.Errorf("the refused directory got a lock file anyway (%v)", err)
	}
	cmd := strings.Fields(strings.TrimPrefix(msg[strings.Index(msg, "run: "):], "run: "))
	if out, err := exec.Command(cmd[0], cmd[1:]...).CombinedOutput(); err != nil {
		t.Fatalf("%v: %v: %s", cmd, err, out)
	}
	l, err = LockDir(dir, "listen.lock")
	if err != nil {
		t.Fatalf("after %v: %v; want it locked", cmd, err)
	}
	l.Release()
}
