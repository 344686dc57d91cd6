package profile

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A config path that is a named pipe (a stale one at VIGIL_CONFIG, a
// mistyped --config) is refused at once: a blocking open would hang vigil,
// and past Ctrl-C, which the CLI catches.
func TestConfigNamedPipeIsRefusedWithoutBlocking(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skip(err)
	}
	done := make(chan error, 1)
	go func() { _, err := Load(path, Checks{}); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "is a named pipe, not a regular file") {
			t.Fatalf("a FIFO as the config: %v; want it refused as a named pipe", err)
		}
	case <-time.After(10 * time.Second):
		// Unblock the goroutine so the test process can end.
		if f, err := os.OpenFile(path, os.O_WRONLY, 0); err == nil {
			f.Close()
		}
		<-done
		t.Fatal("Load blocked opening a FIFO config; want a prompt error that it is not a regular file")
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
	for _, mode := range []os.FileMode{0o666, 0o620, 0o602} {
		os.Chmod(path, mode)
		_, err := Load(path, Checks{})
		if err == nil || !strings.Contains(err.Error(), "writable by group or others") || !strings.Contains(err.Error(), "chmod go-w "+path) {
			t.Errorf("mode %04o: %v; want it refused with chmod go-w", mode, err)
		}
	}
	os.Chmod(path, 0o644)
	if _, err := Load(path, Checks{}); err != nil {
		t.Errorf("mode 0644: %v", err)
	}
}
