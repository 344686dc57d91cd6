//go:build linux

package cli

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// runDemoWithout runs 'vigil demo' with the given standard input and
// standard output a pipe, and returns its exit code and standard error. A
// console that starts anyway is killed after a while: it would never end.
func runDemoWithout(t *testing.T, stdin *os.File, attr *syscall.SysProcAttr) (int, string) {
	t.Helper()
	cmd := exec.Command(vigilBinary(t), "demo")
	cmd.Env = childEnv("TMPDIR="+t.TempDir(), "HOME="+t.TempDir(), "XDG_CONFIG_HOME=", "TERM=xterm-256color")
	cmd.Stdin = stdin
	var out, errOut syncBuffer
	cmd.Stdout, cmd.Stderr = &out, &errOut // a pipe, as in 'vigil demo | tee log'
	cmd.SysProcAttr = attr
	if err := startChild(cmd); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return exit.ExitCode(), errOut.String()
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0, errOut.String()
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Fatalf("the console started without a terminal to draw on and ran until killed; it wrote %d bytes of screen into the pipe", len(out.String()))
		return 0, ""
	}
}

// Standard output a pipe or a file ('vigil > log', 'vigil demo | tee'): the
// console would draw into it, leaving the terminal blank with the keyboard
// taken. It refuses at once, as a usage mistake, saying what to use instead.
func TestConsoleRefusesStdoutNotATerminal(t *testing.T) {
	_, slave := openPTY(t)
	code, stderr := runDemoWithout(t, slave, &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0})
	if code != exitUsage || !strings.Contains(stderr, "needs a terminal") || !strings.Contains(stderr, "vigil activity list") {
		t.Fatalf("exit %d, stderr %q: want exit %d and a refusal naming the missing terminal and the verbs to use", code, stderr, exitUsage)
	}
}

// With no terminal at all (cron, 'ssh host vigil' without -t, a CI step) the
// error is one plain sentence, not Bubble Tea's chain ("bubbletea: error
// opening TTY: … /dev/tty: no such device or address").
func TestConsoleWithoutTerminalSaysSo(t *testing.T) {
	devnull, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer devnull.Close()
	code, stderr := runDemoWithout(t, devnull, &syscall.SysProcAttr{Setsid: true}) // no controlling terminal
	if code != exitUsage || strings.Contains(stderr, "bubbletea") || strings.Contains(stderr, "/dev/tty") || !strings.Contains(stderr, "needs a terminal") {
		t.Fatalf("exit %d, stderr %q: want exit %d and one plain sentence that the console needs a terminal", code, stderr, exitUsage)
	}
}
