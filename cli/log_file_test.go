package cli

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// hangBound is how long a test lets an open that must not wait for a
// reader run before it gives it one and fails: not a speed check, only what
// ends the test when the open hangs.
const hangBound = 20 * time.Second

// openWithoutReader runs open on fifo, a named pipe nobody reads; should
// open hang, it fails the test, after opening a reader to set it free.
func openWithoutReader(t *testing.T, fifo string, open func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- open() }()
	select {
	case err := <-done:
		return err
	case <-time.After(hangBound):
		r, _ := os.OpenFile(fifo, os.O_RDONLY, 0)
		<-done
		r.Close()
		t.Fatalf("writing to a named pipe nobody reads waited for a reader instead of being refused")
		return nil
	}
}

func mkfifo(t *testing.T, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skip(err)
	}
}

// --log-file refuses what is no log file with exit 2, naming the flag and
// what to give: a named pipe nobody reads (the console waited in open(2)
// before drawing anything, with nothing said, until a second Ctrl-C), a
// device such as /dev/zero (taken without a word), a directory and a
// missing directory (which named neither the flag nor the fix).
func TestLogFileRefusesWhatIsNoLogFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "log.fifo")
	mkfifo(t, fifo)
	err := openWithoutReader(t, fifo, func() error { _, _, err := openLog(fifo); return err })
	wantLogFileRefused(t, "a named pipe nobody reads", err, "named pipe nobody reads; start its reader first")
	_, _, err = openLog("/dev/zero")
	wantLogFileRefused(t, "/dev/zero", err, "is a device, not a file")
	_, _, err = openLog(dir)
	wantLogFileRefused(t, "a directory", err, "is a directory")
	_, _, err = openLog(filepath.Join(dir, "missing", "vigil.log"))
	wantLogFileRefused(t, "a file in a missing directory", err, "its directory does not exist")

	// Taken: a regular file, /dev/null, and a named pipe with a reader.
	r, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, path := range []string{filepath.Join(dir, "vigil.log"), os.DevNull, fifo} {
		logger, closeLog, err := openLog(path)
		if err != nil {
			t.Errorf("--log-file %s refused: %v", path, err)
			continue
		}
		logger.Info("taken")
		closeLog()
	}
}

func wantLogFileRefused(t *testing.T, what string, err error, want string) {
	t.Helper()
	var usage usageError
	if !errors.As(err, &usage) {
		t.Errorf("--log-file %s: %v, want a usage error (exit 2)", what, err)
		return
	}
	if msg := err.Error(); !strings.Contains(msg, "--log-file") || !strings.Contains(msg, want) || !strings.Contains(msg, "give a regular file") {
		t.Errorf("--log-file %s: %q, want the flag, %q and what to give", what, msg, want)
	}
}

// proof fetch --out naming a named pipe nobody reads is refused with exit
// 2, naming --out and what to do; it fetched the proof and then hung,
// printing nothing. A pipe with a reader is written, as the docs promise
// of /dev/stdout.
func TestProofFetchOutRefusesANamedPipeNobodyReads(t *testing.T) {
	e := newVerbEnv(t)
	dir := t.TempDir()
	fifo, root := filepath.Join(dir, "proof.fifo"), filepath.Join(dir, "demo-root.pem")
	mkfifo(t, fifo)
	if err := os.WriteFile(root, e.demo.Info.DemoRootPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	var code int
	var out, errOut string
	openWithoutReader(t, fifo, func() error {
		code, out, errOut = e.run("", "proof", "fetch", "--app", "signer", "--root", root, "--out", fifo)
		return nil
	})
	wantExit(t, "proof fetch --out FIFO", code, 2, out, errOut)
	if !strings.Contains(errOut, "--out "+fifo+" is a named pipe nobody reads") || !strings.Contains(errOut, "start its reader first") {
		t.Errorf("the refusal does not name --out and what to do: %q", errOut)
	}

	r, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	code, out, errOut = e.run("", "proof", "fetch", "--app", "signer", "--root", root, "--out", fifo)
	wantExit(t, "proof fetch --out FIFO with a reader", code, 0, out, errOut)
	buf := make([]byte, 1)
	if n, _ := r.Read(buf); n != 1 {
		t.Errorf("nothing written to a named pipe with a reader")
	}
}
