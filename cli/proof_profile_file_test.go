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
	if err == nil || !strings.Contains(err.Error(), "writable by group or others") || !strings.Contains(err.Error(), "chmod go-w "+path) {
		t.Errorf("a world-writable root file: %v", err)
	}
}
