package cli

import (
	"bytes"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// --out /dev/stdout with standard output appended to a file (>> all.json)
// must append the proof there as the shell asked: replacing the file by
// rename would drop what it held before, and send the report printed after
// into the unlinked copy.
func TestProofFetchOutStdoutAppendsToTheRedirectedFile(t *testing.T) {
	e := newVerbEnv(t)
	bin := vigilBinary(t)
	root := filepath.Join(t.TempDir(), "demo-root.pem")
	if err := os.WriteFile(root, e.demo.Info.DemoRootPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{"/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"} {
		if _, err := os.Lstat(out); err != nil {
			continue // not on this system
		}
		path := filepath.Join(t.TempDir(), "all.json")
		const earlier = "earlier content line\n"
		if err := os.WriteFile(path, []byte(earlier), 0o600); err != nil {
			t.Fatal(err)
		}
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(bin, "proof", "fetch", "--app", "signer", "--root", root, "--out", out, "--profile", "alice")
		cmd.Env = childEnv("VIGIL_CONFIG=" + e.config)
		cmd.Stdout = f
		var errOut bytes.Buffer
		cmd.Stderr = &errOut
		err = runChild(cmd)
		f.Close()
		got, rerr := os.ReadFile(path)
		if rerr != nil {
			t.Fatal(rerr)
		}
		if err != nil {
			t.Errorf("--out %s >> FILE: %v\n%s", out, err, errOut.String())
		}
		if !strings.HasPrefix(string(got), earlier) {
			t.Errorf("--out %s >> FILE lost what the file held before:\n%s", out, got)
		}
		if !strings.Contains(string(got), `"bootProof"`) || !strings.Contains(string(got), "Verdict: VERIFIED") {
			t.Errorf("--out %s >> FILE should hold the proof and then the report:\n%s", out, got)
		}
	}
}

// --out /dev/stdout with standard output a socket (systemd's journal, inetd,
// socat) is written to it, with the report: Linux refuses to open a socket
// by /proc/self/fd/1 (ENXIO), which is no named pipe without its reader.
func TestProofFetchOutStdoutWritesToASocket(t *testing.T) {
	e := newVerbEnv(t)
	bin := vigilBinary(t)
	root := filepath.Join(t.TempDir(), "demo-root.pem")
	if err := os.WriteFile(root, e.demo.Info.DemoRootPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Skipf("no socket pair here: %v", err)
	}
	ours, theirs := os.NewFile(uintptr(fds[0]), "reader"), os.NewFile(uintptr(fds[1]), "stdout")
	defer ours.Close()
	cmd := exec.Command(bin, "proof", "fetch", "--app", "signer", "--root", root, "--out", "/dev/stdout", "--profile", "alice")
	cmd.Env = childEnv("VIGIL_CONFIG=" + e.config)
	cmd.Stdout = theirs
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	if err := startChild(cmd); err != nil {
		t.Fatal(err)
	}
	theirs.Close()
	got, _ := io.ReadAll(ours)
	if err := cmd.Wait(); err != nil {
		t.Errorf("--out /dev/stdout to a socket: %v\n%s", err, errOut.String())
	}
	if !strings.Contains(string(got), `"bootProof"`) || !strings.Contains(string(got), "Verdict: VERIFIED") {
		t.Errorf("--out /dev/stdout to a socket should send the proof and then the report:\n%s", got)
	}
}

// --out naming a Unix socket on disk cannot be written (open refuses with
// ENXIO): the error says it is a socket, not a named pipe with no reader.
func TestProofFetchOutSocketIsNotCalledAPipe(t *testing.T) {
	e := newVerbEnv(t)
	sock := filepath.Join(t.TempDir(), "s.sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Skipf("no Unix socket here: %v", err)
	}
	defer l.Close()
	code, out, errOut := e.run("", "proof", "fetch", "--app", "signer", "--out", sock)
	if code == 0 || !strings.Contains(errOut, "is a socket") || strings.Contains(errOut, "pipe nobody reads") {
		t.Errorf("--out SOCKET: exit %d, want an error saying it is a socket\n%s\n%s", code, out, errOut)
	}
}
