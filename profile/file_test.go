package profile

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/internal/fifotest"
)

// A config path that is a named pipe (a stale one at VIGIL_CONFIG, a
// mistyped --config) is refused at once: a blocking open would hang vigil,
// and past Ctrl-C, which the CLI catches.
func TestConfigNamedPipeIsRefusedWithoutBlocking(t *testing.T) {
	path := fifotest.Make(t, "config.toml")
	err := fifotest.Call(t, path, "Load", func() error { _, err := Load(path, Checks{}); return err })
	if err == nil || !strings.Contains(err.Error(), "is a named pipe, not a regular file") {
		t.Fatalf("a FIFO as the config: %v; want it refused as a named pipe", err)
	}
}

// A config that group or others may write is refused with the chmod that
// fixes it: it decides where requests go and which roots proofs trust.
// Readable by others is fine.
func TestConfigWritableByOthersIsRefused(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no Unix permission bits")
	}
	path := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(path, []byte(goodProfile), 0o600); err != nil {
		t.Fatal(err)
	}
	modes := []os.FileMode{0o666, 0o602}
	if os.Geteuid() == 0 {
		// Group write is refused for a group that is not the user's
		// private one; only root can give the file to such a group.
		if err := os.Chown(path, 0, 65534); err != nil {
			t.Fatal(err)
		}
		modes = append(modes, 0o620)
	}
	for _, mode := range modes {
		os.Chmod(path, mode)
		_, err := Load(path, Checks{})
		if err == nil || !strings.Contains(err.Error(), "is writable by") || !strings.Contains(err.Error(), "-w "+path) {
			t.Errorf("mode %04o: %v; want it refused with the chmod that fixes it", mode, err)
		}
	}
	os.Chmod(path, 0o644)
	if _, err := Load(path, Checks{}); err != nil {
		t.Errorf("mode 0644: %v", err)
	}
}
