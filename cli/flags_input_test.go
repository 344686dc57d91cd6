package cli

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// An input file (a request body, a proof, a key to import) that is a named
// pipe nobody writes to reads as empty instead of blocking vigil past
// Ctrl-C; a device is refused.
func TestReadInputNamedPipeDoesNotBlock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "body")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skip(err)
	}
	c := proc{stdin: strings.NewReader("")}
	type result struct {
		data []byte
		err  error
	}
	done := make(chan result, 1)
	go func() { data, _, err := readInput(c, path, 100); done <- result{data, err} }()
	select {
	case r := <-done:
		if r.err != nil || len(r.data) != 0 {
			t.Errorf("a FIFO without a writer: %q, %v; want it read as empty", r.data, r.err)
		}
	case <-time.After(10 * time.Second):
		if f, err := os.OpenFile(path, os.O_WRONLY, 0); err == nil {
			f.Close()
		}
		<-done
		t.Fatal("readInput blocked opening a FIFO")
	}
	if _, _, err := readInput(c, "/dev/zero", 100); err == nil || !strings.Contains(err.Error(), "is a device, not a regular file") {
		t.Errorf("/dev/zero: %v", err)
	}
}
