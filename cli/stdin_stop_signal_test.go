package cli

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A verb reading standard input stops when the command's context ends (what
// Ctrl-C, SIGTERM and SIGHUP do), whatever the producer: here a pipe whose
// writer never writes nor closes.
func TestStdinReadsStopOnStopSignal(t *testing.T) {
	e := newVerbEnv(t)
	headers := t.TempDir() + "/headers"
	if err := os.WriteFile(headers, []byte("X-Any: value\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"stamp", "--key", "alice", "--dir", e.demo.KeysDir},
		{"request", "--path", "/public/v1/query/whoami", "--body-file", "-"},
		{"contract", "create", "--address", "0x0000000000000000000000000000000000000001", "--label", "c", "--type", "ethereum", "--file", "-"},
		{"webhook", "verify", "--body", "-", "--headers", headers},
		{"keys", "import", "--scheme", "p256", "--dir", t.TempDir(), "k"},
		{"oauth2-credential", "update", "--id", "x", "--provider", "x", "--client-id", "c"},
	} {
		pr, pw := io.Pipe()
		ctx, cancel := context.WithCancel(context.Background())
		var out, errOut bytes.Buffer
		c := proc{stdin: pr, stdout: &out, stderr: &errOut, getenv: func(k string) string { return map[string]string{"VIGIL_CONFIG": e.config}[k] }}
		done := make(chan int, 1)
		go func() { done <- run(ctx, c, args) }()
		cancel()
		select {
		case code := <-done:
			if code == exitOK || !strings.Contains(errOut.String(), "nothing was sent") {
				t.Errorf("%v: exit %d after the stop signal, stderr %q; want a failure saying nothing was sent", args, code, errOut.String())
			}
		case <-time.After(10 * time.Second):
			t.Errorf("%v: still reading standard input after the stop signal", args)
			pw.Close()
			<-done
		}
		pw.Close()
	}
}

// The same with the built binary and a real SIGINT: the process ends.
func TestStampReadingStdinEndsOnSIGINT(t *testing.T) {
	bin := vigilBinary(t)
	e := newVerbEnv(t)
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pw.Close() // open until the end: the producer that never finishes
	var errOut bytes.Buffer
	cmd := exec.Command(bin, "stamp", "--key", "alice", "--dir", e.demo.KeysDir)
	cmd.Env = childEnv("VIGIL_CONFIG=" + e.config)
	cmd.Stdin, cmd.Stderr = pr, &errOut
	if err := startChild(cmd); err != nil {
		t.Fatal(err)
	}
	pr.Close()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	// Give vigil the moment it takes to start catching the signal; sent
	// earlier, the signal's default action ends it, which passes too.
	time.Sleep(500 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGINT)
	select {
	case <-done:
		if cmd.ProcessState.Exited() && !strings.Contains(errOut.String(), "nothing was sent") {
			t.Errorf("exit %d, stderr %q; want a message saying nothing was sent", cmd.ProcessState.ExitCode(), errOut.String())
		}
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Fatalf("vigil stamp still reading standard input 20s after SIGINT")
	}
}

// An input cut short by the stop signal is no mistake in the command: every
// verb exits 1 then ("…; nothing was sent", docs/cli.md), those that report
// a file named wrongly as a usage mistake (exit 2) among them.
func TestStdinStoppedExitsFailureNotUsage(t *testing.T) {
	e := newVerbEnv(t)
	dir := t.TempDir()
	boot := dir + "/boot.json"
	if err := os.WriteFile(boot, []byte(`{}`), 0o600); err != nil {
		t.Fatal(err)
	}
	jwks := dir + "/jwks.json"
	if err := os.WriteFile(jwks, []byte(`{"keys":[]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	target := dir + "/carol.target"
	code, out, errOut := e.run("", "login", "oauth-nonce", "--target-key", target)
	wantExit(t, "login oauth-nonce", code, 0, out, errOut)
	for _, args := range [][]string{
		{"webhook", "verify", "--jwks", jwks, "--organization", "o", "--header", "a: b", "--body", "-"},
		{"proof", "verify", "--boot-proof", boot, "--expect-manifest-set", "-"},
		{"login", "oauth", "--target-key", target, "--provider-token", "-"},
		{"request", "--path", "/public/v1/query/whoami", "--body-file", "-"},
	} {
		pr, pw := io.Pipe()
		ctx, cancel := context.WithCancel(context.Background())
		var out, errOut bytes.Buffer
		c := proc{stdin: pr, stdout: &out, stderr: &errOut, getenv: func(k string) string { return map[string]string{"VIGIL_CONFIG": e.config}[k] }}
		done := make(chan int, 1)
		go func() { done <- run(ctx, c, args) }()
		cancel()
		code := <-done
		pw.Close()
		if code != exitFailure || !strings.Contains(errOut.String(), "nothing was sent") {
			t.Errorf("%v: exit %d after the stop signal, stderr %q; want exit %d saying nothing was sent", args, code, errOut.String(), exitFailure)
		}
	}
}
