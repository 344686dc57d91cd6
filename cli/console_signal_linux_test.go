//go:build linux

package cli

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// 'kill PID' (SIGTERM: a service manager, a script, tmux kill-session), Ctrl-C
// sent as a signal and a closed terminal (SIGHUP) end a console or demo
// running in a terminal, and the demo removes its temporary data directory
// (its private keys among it). With Bubble Tea's own signal handler installed
// beside vigil's, one SIGTERM or SIGINT reached both: vigil's ended the
// program, and Bubble Tea's then blocked for good handing the program a quit
// message nobody read, Run waiting for it; later signals were ignored too.
// That was a race (won more often when keys keep the console busy), so many
// demos are stopped here, a few at a time.
func TestConsoleEndsOnStopSignals(t *testing.T) {
	bin := vigilBinary(t)
	sigs := []syscall.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP}
	const runs, together = 24, 4
	var mu sync.Mutex
	var failures []string
	for start := 0; start < runs; start += together {
		var wg sync.WaitGroup
		for i := start; i < start+together; i++ {
			master, slave := openPTY(t) // here: it may skip the test
			wg.Go(func() {
				if err := stopDemoWith(t, bin, master, slave, sigs[i%len(sigs)]); err != nil {
					mu.Lock()
					failures = append(failures, fmt.Sprintf("run %d: %v", i, err))
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		if len(failures) > 0 {
			t.Fatalf("%d of %d runs:\n%s", len(failures), start+together, strings.Join(failures, "\n"))
		}
	}
}

// stopDemoWith runs 'vigil demo' on a pseudo-terminal, sends sig once its
// console shows, and says what went wrong: it did not end, or it left its
// temporary directory behind.
func stopDemoWith(t *testing.T, bin string, master, slave *os.File, sig syscall.Signal) error {
	ws := struct{ row, col, x, y uint16 }{40, 120, 0, 0}
	syscall.Syscall(syscall.SYS_IOCTL, slave.Fd(), syscall.TIOCSWINSZ, uintptr(unsafe.Pointer(&ws)))
	tmp := t.TempDir()
	cmd := exec.Command(bin, "demo")
	cmd.Env = childEnv("TMPDIR="+tmp, "HOME="+t.TempDir(), "XDG_CONFIG_HOME=", "TERM=xterm-256color")
	cmd.Stdin, cmd.Stdout = slave, slave
	var errBuf syncBuffer
	cmd.Stderr = &errBuf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := startChild(cmd); err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	kill := func() { cmd.Process.Kill(); <-done }
	stopDrain, shown := awaitConsoleThenDrain(master, time.Minute)
	defer stopDrain()
	if !shown {
		kill()
		return fmt.Errorf("the demo console did not show its activities; stderr: %s", errBuf.String())
	}
	// Keys still arriving keep the console busy when the signal comes: the
	// moment the race was lost in.
	master.Write(bytes.Repeat([]byte("jk"), 512))
	cmd.Process.Signal(sig)
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		left, _ := filepath.Glob(filepath.Join(tmp, "vigil-demo-*"))
		kill()
		return fmt.Errorf("vigil demo did not end within a minute of %v (killed); temporary directory left: %v", sig, left)
	}
	if left, _ := filepath.Glob(filepath.Join(tmp, "vigil-demo-*")); len(left) > 0 {
		return fmt.Errorf("after %v the demo's temporary directory was left behind: %v", sig, left)
	}
	return nil
}

// awaitConsoleThenDrain reads the console's terminal until its activities
// show (false when they do not within wait), then keeps reading it in the
// background until stop is called, so that drawing never blocks.
func awaitConsoleThenDrain(master *os.File, wait time.Duration) (stop func(), shown bool) {
	var screen bytes.Buffer
	buf := make([]byte, 8192)
	deadline := time.Now().Add(wait)
	for !strings.Contains(screen.String(), "Pending activities") {
		if time.Now().After(deadline) {
			return func() {}, false
		}
		master.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
		n, _ := master.Read(buf)
		screen.Write(buf[:n])
	}
	stopDrain := make(chan struct{})
	go func() {
		for {
			select {
			case <-stopDrain:
				return
			default:
			}
			master.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
			if _, err := master.Read(buf); err != nil && !os.IsTimeout(err) {
				return
			}
		}
	}()
	return func() { close(stopDrain) }, true
}
