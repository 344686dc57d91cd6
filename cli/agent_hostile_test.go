package cli

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/agent"
)

// hostileAlgo is a key type name carrying a title-setting OSC sequence and a
// screen clear.
const hostileAlgo = "evil\x1b]0;owned\x07\x1b[2J"

// hostileAgent lists one key of the unknown type hostileAlgo; it signs
// nothing.
type hostileAgent struct{}

func (hostileAgent) List() ([]*agent.Key, error) {
	blob := ssh.Marshal(struct {
		Format string
		Rest   []byte `ssh:"rest"`
	}{hostileAlgo, []byte("x")})
	return []*agent.Key{{Format: hostileAlgo, Blob: blob, Comment: "c"}}, nil
}
func (hostileAgent) Sign(ssh.PublicKey, []byte) (*ssh.Signature, error) {
	return nil, errors.New("no")
}
func (hostileAgent) Add(agent.AddedKey) error       { return errors.New("no") }
func (hostileAgent) Remove(ssh.PublicKey) error     { return errors.New("no") }
func (hostileAgent) RemoveAll() error               { return errors.New("no") }
func (hostileAgent) Lock([]byte) error              { return errors.New("no") }
func (hostileAgent) Unlock([]byte) error            { return errors.New("no") }
func (hostileAgent) Signers() ([]ssh.Signer, error) { return nil, errors.New("no") }

// startHostileAgent serves hostileAgent on a socket and returns its path.
func startHostileAgent(t *testing.T) string {
	return serveAgent(t, hostileAgent{})
}

// serveAgent serves a on a socket and returns its path.
func serveAgent(t *testing.T, a agent.Agent) string {
	// Not t.TempDir: a unix socket path must stay short.
	dir, err := os.MkdirTemp("", "agent-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	sock := filepath.Join(dir, "s")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() { agent.ServeAgent(a, c); c.Close() }()
		}
	}()
	return sock
}

// An agent (any process that can serve on the socket) listing a key whose
// type name holds escape sequences: keys list --agent, keys show and stamp
// say the key cannot stamp, with the name escaped, never raw.
func TestAgentKeyTypeTextIsEscapedWherePrinted(t *testing.T) {
	sock := startHostileAgent(t)
	var out, errOut strings.Builder
	env := map[string]string{"SSH_AUTH_SOCK": sock, "HOME": t.TempDir()}
	c := proc{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut, getenv: func(k string) string { return env[k] }}
	for _, args := range [][]string{{"keys", "list", "--agent"}, {"keys", "show", "ssh-agent:c"}, {"stamp", "--key", "ssh-agent:c", "--body", "{}"}} {
		out.Reset()
		errOut.Reset()
		run(context.Background(), c, args)
		all := out.String() + errOut.String()
		if strings.ContainsAny(all, "\x1b\x07") {
			t.Errorf("%q put the agent's control characters on the terminal:\n%q", args, all)
		}
		if !strings.Contains(all, "cannot") || !strings.Contains(all, "evil") {
			t.Errorf("%q does not say the key of type evil… cannot be used:\n%q", args, all)
		}
	}
}
