//go:build linux

package cli

import (
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/vigil-console/vigil/server"
)

// A second stop signal while 'vigil demo' shuts down (here waiting for a
// request in flight) ends it at once, and still as a clean stop: the
// request is cut off, the terminal is put back and the temporary directory,
// the demo's private keys among it, is removed. It used to be swallowed: the
// user waited, or killed the demo with its directory left behind.
func TestDemoSecondStopSignalCutsTheShutdownShort(t *testing.T) {
	bin := vigilBinary(t)
	master, slave := openPTY(t)
	ws := struct{ row, col, x, y uint16 }{40, 120, 0, 0}
	syscall.Syscall(syscall.SYS_IOCTL, slave.Fd(), syscall.TIOCSWINSZ, uintptr(unsafe.Pointer(&ws)))
	tmp := t.TempDir()
	logPath := filepath.Join(t.TempDir(), "demo.log")
	cmd := exec.Command(bin, "demo", "--log-file", logPath)
	cmd.Env = childEnv("TMPDIR="+tmp, "HOME="+t.TempDir(), "XDG_CONFIG_HOME=", "TERM=xterm-256color")
	cmd.Stdin, cmd.Stdout = slave, slave
	var errBuf syncBuffer
	cmd.Stderr = &errBuf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := startChild(cmd); err != nil {
		t.Fatal(err)
	}
	var waitErr error
	done := make(chan struct{})
	go func() { waitErr = cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		select {
		case <-done:
		default:
			cmd.Process.Kill()
			<-done
		}
	})
	stopDrain, shown := awaitConsoleThenDrain(master, time.Minute)
	defer stopDrain()
	if !shown {
		t.Fatalf("the demo console did not show its activities; stderr: %s", errBuf.String())
	}

	dirs, _ := filepath.Glob(filepath.Join(tmp, "vigil-demo-*"))
	if len(dirs) != 1 {
		t.Fatalf("want the demo's one temporary directory, found %v", dirs)
	}
	url := server.HolderURL(dirs[0])
	if url == "" {
		t.Fatalf("the demo in %s does not say where it serves", dirs[0])
	}
	// Its shutdown waits for this request (demoCloseGrace).
	_, r := requestInFlight(t, strings.TrimPrefix(url, "http://"))

	cmd.Process.Signal(syscall.SIGTERM)
	readLog := func() string { b, _ := os.ReadFile(logPath); return string(b) }
	for !strings.Contains(readLog(), "console stop") {
		select {
		case <-done:
			t.Fatalf("the demo ended before the second signal (%v), its request in flight notwithstanding; stderr: %s; log:\n%s", waitErr, errBuf.String(), readLog())
		case <-time.After(10 * time.Millisecond):
		}
	}
	cmd.Process.Signal(syscall.SIGINT)
	select {
	case <-done:
		if waitErr != nil {
			t.Errorf("vigil demo: %v, want a clean stop; stderr: %s", waitErr, errBuf.String())
		}
	case <-time.After(time.Minute):
		t.Fatalf("vigil demo did not end after a second stop signal; stderr: %s", errBuf.String())
	}
	log := readLog()
	if !strings.Contains(log, "request(s) in flight at the second signal were cut off") {
		t.Errorf("the second signal should have cut the request in flight off, not waited for it; log:\n%s", log)
	}
	if resp, err := http.ReadResponse(r, nil); err == nil {
		t.Errorf("the cut-off request got a reply: %s", resp.Status)
	}
	if left, _ := filepath.Glob(filepath.Join(tmp, "vigil-demo-*")); len(left) > 0 {
		t.Errorf("the demo's temporary directory was left behind: %v", left)
	}
	tio, err := unix.IoctlGetTermios(int(slave.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	if tio.Lflag&unix.ECHO == 0 || tio.Lflag&unix.ICANON == 0 {
		t.Errorf("the terminal was left in raw mode (lflag %#x)", tio.Lflag)
	}
}
