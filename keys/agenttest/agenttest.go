// Package agenttest starts a real OpenSSH ssh-agent process for tests of
// stamping through the agent, and loads keys into it.
package agenttest

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh/agent"
)

// Agent is a running ssh-agent; it is killed when the test ends.
type Agent struct {
	Socket string // for SSH_AUTH_SOCK
	t      testing.TB
}

// Options configure Start.
type Options struct {
	// PKCS11Allow is the agent's -P allow-list of PKCS#11 module paths
	// (ssh-add -s refuses modules outside it).
	PKCS11Allow string
	// Env is added to the agent's environment (its PKCS#11 helper inherits it).
	Env []string
}

// Start starts ssh-agent in the foreground on a fresh socket. It skips the
// test, saying so, when ssh-agent is not installed.
func Start(t testing.TB, opts Options) *Agent {
	t.Helper()
	bin, err := exec.LookPath("ssh-agent")
	if err != nil {
		t.Skip("ssh-agent is not installed (apt-get install openssh-client, or .ci/install-agent-tools.sh): agent tests skipped")
	}
	// A socket path must fit in 108 bytes; t.TempDir's can be longer.
	dir, err := os.MkdirTemp("", "vigil-agent-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	sock := filepath.Join(dir, "agent.sock")
	args := []string{"-D", "-a", sock}
	if opts.PKCS11Allow != "" {
		args = append(args, "-P", opts.PKCS11Allow)
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), opts.Env...)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatalf("start ssh-agent: %v", err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.Dial("unix", sock)
		if err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("ssh-agent did not listen on %s within 10s: %v\n%s", sock, err, out.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	return &Agent{Socket: sock, t: t}
}

// Client is a new connection to the agent, closed when the test ends.
func (a *Agent) Client() agent.ExtendedAgent {
	a.t.Helper()
	c, err := net.Dial("unix", a.Socket)
	if err != nil {
		a.t.Fatal(err)
	}
	a.t.Cleanup(func() { c.Close() })
	return agent.NewClient(c)
}

// Add loads a private key (*ecdsa.PrivateKey, ed25519.PrivateKey,
// *rsa.PrivateKey, …) into the agent with comment.
func (a *Agent) Add(priv any, comment string) {
	a.t.Helper()
	if err := a.Client().Add(agent.AddedKey{PrivateKey: priv, Comment: comment}); err != nil {
		a.t.Fatalf("add key %q to ssh-agent: %v", comment, err)
	}
}
