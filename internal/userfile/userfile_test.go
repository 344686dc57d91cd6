package userfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A named pipe nobody writes to is refused at once by Read (a blocking open
// would hang vigil past Ctrl-C), and reads as empty through OpenInput.
func TestNamedPipeDoesNotBlock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skip(err)
	}
	if _, err := Read(path, 100); err == nil || !strings.Contains(err.Error(), "is a named pipe, not a regular file") {
		t.Errorf("Read of a FIFO: %v", err)
	}
	f, err := OpenInput(path)
	if err != nil {
		t.Fatalf("OpenInput of a FIFO: %v", err)
	}
	defer f.Close()
	if b, err := io.ReadAll(f); err != nil || len(b) != 0 {
		t.Errorf("a FIFO without a writer read %q, %v; want empty", b, err)
	}
}

func TestReadRefusesWhatIsNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	if _, err := Read(dir, 100); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("a directory: %v", err)
	}
	if _, err := Read("/dev/zero", 100); err == nil || !strings.Contains(err.Error(), "is a device") {
		t.Errorf("/dev/zero: %v", err)
	}
	if _, err := Read(filepath.Join(dir, "none"), 100); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file: %v", err)
	}
	big := filepath.Join(dir, "big")
	os.WriteFile(big, make([]byte, 101), 0o600)
	if _, err := Read(big, 100); err == nil || !strings.Contains(err.Error(), "larger than 100 bytes") {
		t.Errorf("101 bytes over a limit of 100: %v", err)
	}
	if b, err := Read(big, 101); err != nil || len(b) != 101 {
		t.Errorf("101 bytes within the limit: %d, %v", len(b), err)
	}
}
