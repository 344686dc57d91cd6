//go:build linux

package cli

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/vigil-console/vigil/keys"
)

const hiddenKeyPrompt = "private key (hex) of k1 (input hidden): "

// echoing reports whether the terminal slave echoes what is typed.
func echoing(t *testing.T, slave *os.File) bool {
	t.Helper()
	tio, err := unix.IoctlGetTermios(int(slave.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	return tio.Lflag&unix.ECHO != 0
}

// startKeysImportOnPTY runs the vigil binary's 'keys import k1' with the pty
// as standard input, in a process group of its own (not orphaned: this
// test is its parent, so a stop signal really stops it), and waits for the
// hidden prompt.
func startKeysImportOnPTY(t *testing.T, slave *os.File, dir string) (*exec.Cmd, *syncBuffer) {
	t.Helper()
	var errOut syncBuffer
	cmd := exec.Command(vigilBinary(t), "keys", "import", "--scheme", "p256", "--dir", dir, "k1")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, &errOut, &errOut
	cmd.Env = childEnv("HOME=" + t.TempDir())
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := startChild(cmd); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	waitFor(t, "the hidden prompt", func() bool { return strings.Contains(errOut.String(), hiddenKeyPrompt) })
	return cmd, &errOut
}

// waitFor waits (10 s at most) until done says so.
func waitFor(t *testing.T, what string, done func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !done(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited 10 s for %s", what)
		}
	}
}

// processState is the state letter of pid in /proc ('T': stopped).
func processState(t *testing.T, pid int) byte {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		t.Fatal(err)
	}
	// pid (comm) S ...: comm may hold anything, so from the last ')'.
	rest := b[bytes.LastIndexByte(b, ')')+2:]
	return rest[0]
}

// Ctrl-Z at the hidden prompt, then 'fg': while vigil is stopped the shell
// turns echo back on, and a key pasted after 'fg' was shown on the screen
// and in scrollback, under a prompt saying "(input hidden)". vigil now
// turns echo off again on resume and asks again.
func TestKeysImportHidesTheKeyAgainAfterCtrlZAndFg(t *testing.T) {
	master, slave := openPTY(t)
	dir := filepath.Join(t.TempDir(), "keys")
	cmd, errOut := startKeysImportOnPTY(t, slave, dir)
	waitFor(t, "echo off at the prompt", func() bool { return !echoing(t, slave) })

	syscall.Kill(cmd.Process.Pid, syscall.SIGTSTP) // Ctrl-Z
	waitFor(t, "vigil to stop", func() bool { return processState(t, cmd.Process.Pid) == 'T' })
	// As the shell does when it takes the terminal back (a real shell:
	// TestKeysImportUnderAScriptStopsOnCtrlZ).
	tio, _ := unix.IoctlGetTermios(int(slave.Fd()), unix.TCGETS)
	tio.Lflag |= unix.ECHO
	unix.IoctlSetTermios(int(slave.Fd()), unix.TCSETS, tio)

	syscall.Kill(cmd.Process.Pid, syscall.SIGCONT) // fg
	waitFor(t, "the prompt again after fg", func() bool { return strings.Count(errOut.String(), hiddenKeyPrompt) == 2 })
	if echoing(t, slave) {
		t.Fatal("after fg the hidden prompt is shown with echo on")
	}
	const priv = "c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721"
	master.Write([]byte(priv + "\n"))
	if err := cmd.Wait(); err != nil {
		t.Fatalf("%v\n%s", err, errOut.String())
	}
	echoed := readAllEchoed(master)
	if strings.Contains(echoed, priv) || strings.Contains(errOut.String(), priv) {
		t.Fatalf("the private key was shown after Ctrl-Z and fg: terminal %q, output %q", echoed, errOut.String())
	}
	k, err := (keys.Store{Dir: dir}).Load("k1")
	if err != nil {
		t.Fatal(err)
	}
	if k.PrivateKeyHex() != priv {
		t.Fatal("the key stored is not the one typed")
	}
}

// readAllEchoed reads what the terminal has echoed so far.
func readAllEchoed(master *os.File) string {
	var echoed bytes.Buffer
	buf := make([]byte, 4096)
	for {
		master.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
		n, err := master.Read(buf)
		echoed.Write(buf[:n])
		if err != nil {
			return echoed.String()
		}
	}
}

// Ctrl-\ (SIGQUIT) at the hidden prompt dumped every goroutine and exited 2
// with echo off, which the shell then kept. It now ends the read as Ctrl-C
// does: terminal put back, nothing imported, exit 1.
func TestKeysImportCtrlBackslashAtTheHiddenPromptPutsTheTerminalBack(t *testing.T) {
	_, slave := openPTY(t)
	dir := filepath.Join(t.TempDir(), "keys")
	cmd, errOut := startKeysImportOnPTY(t, slave, dir)
	waitFor(t, "echo off at the prompt", func() bool { return !echoing(t, slave) })
	syscall.Kill(cmd.Process.Pid, syscall.SIGQUIT)
	err := cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != exitFailure {
		t.Errorf("Ctrl-\\ at the hidden prompt: %v, want exit %d as Ctrl-C gives\n%s", err, exitFailure, errOut.String())
	}
	if !echoing(t, slave) {
		t.Error("Ctrl-\\ at the hidden prompt left the terminal without echo")
	}
	if got := errOut.String(); strings.Contains(got, "goroutine ") || !strings.Contains(got, "nothing was sent") {
		t.Errorf("Ctrl-\\ at the hidden prompt said:\n%s", got)
	}
	if _, err := (keys.Store{Dir: dir}).Load("k1"); err == nil {
		t.Error("a key was imported")
	}
}

// A stop signal (Ctrl-C, SIGTERM) that came as keys import started: the
// read used to start anyway, and its term.ReadPassword could turn echo off
// after readHidden had put the terminal back, leaving the shell without
// echo. Now nothing is asked and the terminal is left as it was: what is
// typed next is echoed.
func TestKeysImportStoppedAsItStartsLeavesTheTerminalAlone(t *testing.T) {
	master, slave := openPTY(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errOut syncBuffer
	c := proc{stdin: slave, stdout: &out, stderr: &errOut, getenv: func(k string) string {
		if k == "HOME" {
			return t.TempDir()
		}
		return ""
	}}
	dir := filepath.Join(t.TempDir(), "keys")
	if code := run(ctx, c, []string{"keys", "import", "--scheme", "p256", "--dir", dir, "k1"}); code != exitFailure {
		t.Errorf("exit %d, want %d\n%s", code, exitFailure, errOut.String())
	}
	if strings.Contains(errOut.String(), "(input hidden)") {
		t.Errorf("stopped before it asked, keys import still showed its hidden prompt:\n%s", errOut.String())
	}
	if !strings.Contains(errOut.String(), "nothing was sent") {
		t.Errorf("the error does not say nothing was imported:\n%s", errOut.String())
	}
	master.Write([]byte("typed after\n"))
	var echoed string
	waitFor(t, "what was typed after to be echoed", func() bool {
		echoed += readAllEchoed(master)
		return strings.Contains(echoed, "typed after")
	})
	if !echoing(t, slave) {
		t.Error("the terminal was left without echo")
	}
}
