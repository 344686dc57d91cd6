package cli

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/internal/fifotest"
)

// A trusted_roots entry that is a named pipe is refused at once: a blocking
// open would hang 'vigil proof fetch' and the console past Ctrl-C.
func TestTrustedRootNamedPipeIsRefusedWithoutBlocking(t *testing.T) {
	path := fifotest.Make(t, "root.pem")
	err := fifotest.Call(t, path, "reading a trusted root", func() error {
		_, err := profileProofSettings(Profile{Name: "prod", TrustedRoots: []string{path}})
		return err
	})
	if err == nil || !strings.Contains(err.Error(), path+" is a named pipe, not a regular file") {
		t.Fatalf("a FIFO trusted root: %v; want it refused as a named pipe", err)
	}
}

// A root file others may write decides which enclaves vigil trusts: refused
// with the chmod that fixes it.
func TestTrustedRootWritableByOthersIsRefused(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no Unix permission bits")
	}
	path := filepath.Join(t.TempDir(), "root.pem")
	if err := os.WriteFile(path, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	os.Chmod(path, 0o666)
	_, err := profileProofSettings(Profile{Name: "prod", TrustedRoots: []string{path}})
	if err == nil || !strings.Contains(err.Error(), "is writable by") || !strings.Contains(err.Error(), "-w "+path) {
		t.Errorf("a world-writable root file: %v", err)
	}
}

// A root file in a directory others may write could be replaced by them:
// refused, naming the directory and the chmod that fixes it.
func TestTrustedRootInADirectoryOthersMayWriteIsRefused(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no Unix permission bits")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "root.pem")
	if err := os.WriteFile(path, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(dir, 0o700) })
	_, err := profileProofSettings(Profile{Name: "prod", TrustedRoots: []string{path}})
	if err == nil || !strings.Contains(err.Error(), "directory "+dir) || !strings.Contains(err.Error(), "-w "+dir) {
		t.Errorf("a root file in a world-writable directory: %v", err)
	}
}
