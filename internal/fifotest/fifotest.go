// Package fifotest is for tests that vigil does not hang on a named pipe it
// is given as a file (a config, a key, a request body): a blocking open would
// hold the process past Ctrl-C.
package fifotest

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// hang is how long Call waits before it calls the read a hang: reads of a
// pipe return at once or never, so this is no timing.
const hang = 10 * time.Second

// Make creates a named pipe called name in a new temporary directory and
// returns its path. The test is skipped where named pipes cannot be made.
func Make(t testing.TB, name string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := mkfifo(path); err != nil {
		t.Skipf("no named pipe here: %v", err)
	}
	return path
}

// Call runs read, which is given the named pipe at path, and returns what it
// returned. A read still blocked after a while is a hang: Call unblocks it by
// opening the pipe for writing, so the test process can end, and fails the
// test, saying what hung.
func Call[T any](t testing.TB, path, what string, read func() T) T {
	t.Helper()
	done := make(chan T, 1)
	go func() { done <- read() }()
	select {
	case got := <-done:
		return got
	case <-time.After(hang):
	}
	if f, err := os.OpenFile(path, os.O_WRONLY, 0); err == nil {
		f.Close()
	}
	got := <-done
	t.Fatalf("%s blocked on the named pipe %s; want it read at once or refused", what, path)
	return got
}
