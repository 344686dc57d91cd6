//go:build linux

package cli

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
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

// startShellOnPTY starts an interactive shell (bash, without line editing,
// so that at its own prompt the terminal echoes) in a session of its own,
// the pty its controlling terminal: it does job control as a user's shell
// does. What the terminal shows is gathered in the returned buffer.
func startShellOnPTY(t *testing.T, master, slave *os.File) (*exec.Cmd, *syncBuffer) {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash here")
	}
	shell := exec.Command(bash, "--norc", "--noprofile", "--noediting", "-i")
	shell.Stdin, shell.Stdout, shell.Stderr = slave, slave, slave
	shell.Env = childEnv("PS1=$ ", "HOME="+t.TempDir())
	shell.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := startChild(shell); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { shell.Process.Kill(); shell.Wait() })
	var screen syncBuffer
	go io.Copy(&screen, master)
	return shell, &screen
}

// processInSession is the pid of the process running bin in session sid.
func processInSession(t *testing.T, sid int, bin string) int {
	t.Helper()
	var found int
	waitFor(t, bin+" to run", func() bool {
		procs, _ := filepath.Glob("/proc/[0-9]*")
		for _, p := range procs {
			pid, _ := strconv.Atoi(filepath.Base(p))
			if exe, _ := os.Readlink(p + "/exe"); exe != bin {
				continue
			}
			if s, err := unix.Getsid(pid); err == nil && s == sid {
				found = pid
				return true
			}
		}
		return false
	})
	return found
}

// Ctrl-Z at the hidden prompt of a script's vigil, run by a real shell:
// vigil stops with the script, the shell takes the terminal back with echo
// on and gets what is typed next (vigil used to take it), and after 'fg'
// the prompt is repeated with echo off and the key typed is stored, never
// shown.
func TestKeysImportCtrlZAndFgAtARealShell(t *testing.T) {
	master, slave := openPTY(t)
	bin := vigilBinary(t)
	dir := filepath.Join(t.TempDir(), "keys")
	shell, screen := startShellOnPTY(t, master, slave)
	master.Write([]byte("sh -c '\"$0\" keys import --scheme p256 --dir \"$1\" k1; echo script-\"done\"' " + bin + " " + dir + "\n"))
	waitFor(t, "the hidden prompt", func() bool { return strings.Contains(screen.String(), hiddenKeyPrompt) })
	waitFor(t, "echo off at the prompt", func() bool { return !echoing(t, slave) })
	vigil := processInSession(t, shell.Process.Pid, bin)

	master.Write([]byte{0x1a}) // Ctrl-Z
	waitFor(t, "vigil itself to stop", func() bool { return processState(t, vigil) == 'T' })
	waitFor(t, "the shell's prompt to echo again", func() bool { return echoing(t, slave) })
	master.Write([]byte("echo shell-$((40+2))\n"))
	waitFor(t, "the shell to run what was typed at its prompt", func() bool { return strings.Contains(screen.String(), "shell-42") })

	master.Write([]byte("fg\n"))
	waitFor(t, "the prompt again after fg", func() bool { return strings.Count(screen.String(), hiddenKeyPrompt) == 2 })
	if echoing(t, slave) {
		t.Fatal("after fg the hidden prompt is shown with echo on")
	}
	const priv = "c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721"
	master.Write([]byte(priv + "\n"))
	waitFor(t, "the script to end", func() bool { return strings.Contains(screen.String(), "script-done") })
	if strings.Contains(screen.String(), priv) {
		t.Fatalf("the private key was shown after Ctrl-Z and fg:\n%s", screen.String())
	}
	k, err := (keys.Store{Dir: dir}).Load("k1")
	if err != nil {
		t.Fatalf("%v\n%s", err, screen.String())
	}
	if k.PrivateKeyHex() != priv {
		t.Fatal("the key stored is not the one typed")
	}
}

// Ctrl-Z at the hidden prompt of a vigil run by a script ('sh -c', make):
// vigil decided from its parent (the script's shell, in vigil's process
// group) that nobody could continue it and went on reading, while the
// rest of the job stopped and the user's shell took the terminal back.
// vigil now stops with the job, and on SIGCONT ('fg') asks again, echo off.
func TestKeysImportUnderAScriptStopsOnCtrlZ(t *testing.T) {
	master, slave := openPTY(t)
	dir := filepath.Join(t.TempDir(), "keys")
	var errOut syncBuffer
	script := exec.Command("sh", "-c", `"$0" keys import --scheme p256 --dir "$1" k1; echo script-"done"`, vigilBinary(t), dir)
	script.Stdin, script.Stdout, script.Stderr = slave, &errOut, &errOut
	script.Env = childEnv("HOME=" + t.TempDir())
	// A process group of its own, not orphaned: this test, the script's
	// parent, is in another group of the session, as a user's shell is.
	script.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := startChild(script); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Kill(-script.Process.Pid, syscall.SIGKILL); script.Wait() })
	waitFor(t, "the hidden prompt", func() bool { return strings.Contains(errOut.String(), hiddenKeyPrompt) })
	waitFor(t, "echo off at the prompt", func() bool { return !echoing(t, slave) })
	children, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", script.Process.Pid, script.Process.Pid))
	vigil, perr := strconv.Atoi(strings.TrimSpace(string(children)))
	if err != nil || perr != nil {
		t.Fatalf("vigil's pid, the script's child: %q %v %v", children, err, perr)
	}

	syscall.Kill(-script.Process.Pid, syscall.SIGTSTP) // Ctrl-Z, to the job
	waitFor(t, "vigil itself to stop", func() bool { return processState(t, vigil) == 'T' })
	// As the shell does when it takes the terminal back.
	tio, _ := unix.IoctlGetTermios(int(slave.Fd()), unix.TCGETS)
	tio.Lflag |= unix.ECHO
	unix.IoctlSetTermios(int(slave.Fd()), unix.TCSETS, tio)

	syscall.Kill(-script.Process.Pid, syscall.SIGCONT) // fg
	waitFor(t, "the prompt again after fg", func() bool { return strings.Count(errOut.String(), hiddenKeyPrompt) == 2 })
	if echoing(t, slave) {
		t.Fatal("after fg the hidden prompt is shown with echo on")
	}
	const priv = "c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721"
	master.Write([]byte(priv + "\n"))
	if err := script.Wait(); err != nil || !strings.Contains(errOut.String(), "script-done") {
		t.Fatalf("%v\n%s", err, errOut.String())
	}
	if echoed := readAllEchoed(master); strings.Contains(echoed, priv) {
		t.Fatalf("the private key was shown after Ctrl-Z and fg: %q", echoed)
	}
	k, err := (keys.Store{Dir: dir}).Load("k1")
	if err != nil || k.PrivateKeyHex() != priv {
		t.Fatalf("the key stored is not the one typed: %v", err)
	}
}

// Once a hidden prompt was answered, Ctrl-Z did nothing for the rest of the
// command (the Go runtime kept dropping SIGTSTP): an oauth2-credential
// update waiting on the service could not be stopped. It now stops.
func TestCtrlZStopsVigilAfterTheHiddenPrompt(t *testing.T) {
	e := newVerbEnv(t)
	target, _ := url.Parse(e.demo.URL)
	proxy := httputil.NewSingleHostReverseProxy(target)
	submitted := make(chan struct{}, 1)
	hang := make(chan struct{})
	gw := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, "/public/v1/submit/") {
			proxy.ServeHTTP(w, r)
			return
		}
		submitted <- struct{}{}
		<-hang // the service does not answer
	}))
	t.Cleanup(func() { close(hang); gw.Close() })
	e.configVia(gw.URL, e.config)

	master, slave := openPTY(t)
	var errOut syncBuffer
	cmd := exec.Command(vigilBinary(t), "oauth2-credential", "update", "--id", "no-such-credential", "--provider", "discord", "--client-id", "1234")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, &errOut, &errOut
	cmd.Env = childEnv("VIGIL_CONFIG=" + e.config)
	// A process group of its own, not orphaned: this test, its parent, is
	// in another group of the session and could continue it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := startChild(cmd); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	waitFor(t, "the hidden prompt", func() bool { return strings.Contains(errOut.String(), "client secret (input hidden): ") })
	waitFor(t, "echo off at the prompt", func() bool { return !echoing(t, slave) })
	master.Write([]byte("secretvalue\n"))
	select {
	case <-submitted:
	case <-time.After(30 * time.Second):
		t.Fatalf("the update never reached the service\n%s", errOut.String())
	}

	syscall.Kill(-cmd.Process.Pid, syscall.SIGTSTP) // Ctrl-Z, to the job
	waitFor(t, "vigil to stop", func() bool { return processState(t, cmd.Process.Pid) == 'T' })
	syscall.Kill(-cmd.Process.Pid, syscall.SIGCONT)
}

// A second stop signal right after the first (SIGINT then SIGTERM, as a
// supervisor escalates) at the hidden prompt ended vigil at once, at times
// before readHidden had put the terminal back: the shell was left without
// echo. The terminal is now put back before that exit.
func TestTwoStopSignalsAtTheHiddenPromptLeaveEchoOn(t *testing.T) {
	for i := 0; i < 20; i++ {
		_, slave := openPTY(t)
		cmd, errOut := startKeysImportOnPTY(t, slave, filepath.Join(t.TempDir(), "keys"))
		waitFor(t, "echo off at the prompt", func() bool { return !echoing(t, slave) })
		syscall.Kill(cmd.Process.Pid, syscall.SIGINT)
		syscall.Kill(cmd.Process.Pid, syscall.SIGTERM)
		cmd.Wait()
		if !echoing(t, slave) {
			t.Fatalf("run %d: SIGINT then SIGTERM at the hidden prompt left the terminal without echo\n%s", i+1, errOut.String())
		}
		if got := errOut.String(); !strings.Contains(got, "nothing was sent") && !strings.Contains(got, "second stop signal") {
			t.Fatalf("run %d: said:\n%s", i+1, errOut.String())
		}
	}
}
