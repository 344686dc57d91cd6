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

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/agent"
)

// Agent is a running ssh-agent; it is killed when the test ends.
type Agent struct {
	Socket string // for SSH_AUTH_SOCK
	t      testing.TB
	opts   Options
	cmd    *exec.Cmd
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
	a := &Agent{Socket: filepath.Join(dir, "agent.sock"), t: t, opts: opts}
	a.start(bin)
	t.Cleanup(a.stop)
	return a
}

func (a *Agent) start(bin string) {
	a.t.Helper()
	args := []string{"-D", "-a", a.Socket}
	if a.opts.PKCS11Allow != "" {
		args = append(args, "-P", a.opts.PKCS11Allow)
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), a.opts.Env...)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		a.t.Fatalf("start ssh-agent: %v", err)
	}
	a.cmd = cmd
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.Dial("unix", a.Socket)
		if err == nil {
			c.Close()
			return
		}
		if time.Now().After(deadline) {
			a.t.Fatalf("ssh-agent did not listen on %s within 10s: %v\n%s", a.Socket, err, out.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (a *Agent) stop() {
	if a.cmd != nil {
		a.cmd.Process.Kill()
		a.cmd.Wait()
		a.cmd = nil
	}
}

// Restart kills the agent and starts a new one on the same socket, holding
// no keys, as when a user restarts theirs.
func (a *Agent) Restart() {
	a.t.Helper()
	bin := a.cmd.Path
	a.stop()
	os.Remove(a.Socket)
	a.start(bin)
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

// Token is a SoftHSM2 token made for one test: a software stand-in for a
// hardware token, reached through its PKCS#11 module as ssh-agent reaches a
// YubiKey's.
type Token struct {
	Module string   // the PKCS#11 library, symlinks resolved (ssh-agent's -P checks the real path)
	Env    []string // SOFTHSM2_CONF for the agent and the tools
	PIN    string
	dir    string
	t      testing.TB
}

// softHSMModules are where distributions put the SoftHSM2 PKCS#11 library.
var softHSMModules = []string{
	"/usr/lib/softhsm/libsofthsm2.so",
	"/usr/lib/x86_64-linux-gnu/softhsm/libsofthsm2.so",
	"/usr/lib/aarch64-linux-gnu/softhsm/libsofthsm2.so",
	"/usr/local/lib/softhsm/libsofthsm2.so",
	"/opt/homebrew/lib/softhsm/libsofthsm2.so",
}

// StartSoftHSM initialises a fresh SoftHSM2 token in a temporary directory.
// It skips the test, saying so, when softhsm2, opensc's pkcs11-tool or
// ssh-add is not installed.
func StartSoftHSM(t testing.TB) *Token {
	t.Helper()
	for _, tool := range []string{"softhsm2-util", "pkcs11-tool", "ssh-add", "ssh-agent"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed (apt-get install softhsm2 opensc openssh-client, or .ci/install-agent-tools.sh): hardware-token test skipped", tool)
		}
	}
	module := ""
	for _, p := range softHSMModules {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			module = real
			break
		}
	}
	if module == "" {
		t.Skip("the SoftHSM2 PKCS#11 library is not installed (apt-get install softhsm2): hardware-token test skipped")
	}
	dir, err := os.MkdirTemp("", "vigil-hsm-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	conf := filepath.Join(dir, "softhsm2.conf")
	if err := os.Mkdir(filepath.Join(dir, "tokens"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(conf, []byte("directories.tokendir = "+filepath.Join(dir, "tokens")+"\nobjectstore.backend = file\nlog.level = ERROR\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tok := &Token{Module: module, Env: []string{"SOFTHSM2_CONF=" + conf}, PIN: "246810", dir: dir, t: t}
	tok.run(nil, "softhsm2-util", "--init-token", "--free", "--label", "vigil", "--pin", tok.PIN, "--so-pin", "13579111")
	return tok
}

func (tok *Token) run(env []string, name string, args ...string) string {
	tok.t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env = append(append(os.Environ(), tok.Env...), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		tok.t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// GenerateP256 generates a P-256 key pair inside the token, so the private
// key never exists outside it, and checks the token marks it never
// extractable. label may be empty: OpenSSH then names the key by its module.
func (tok *Token) GenerateP256(id, label string) {
	tok.t.Helper()
	args := []string{"--module", tok.Module, "--token-label", "vigil", "--login", "--pin", tok.PIN,
		"--keypairgen", "--key-type", "EC:prime256v1", "--id", id, "--usage-sign"}
	if label != "" {
		args = append(args, "--label", label)
	}
	out := tok.run(nil, "pkcs11-tool", args...)
	if !strings.Contains(out, "never extractable") {
		tok.t.Fatalf("the token's private key is extractable:\n%s", out)
	}
}

// AddToken loads the token's keys into the agent as 'ssh-add -s MODULE' does,
// giving the PIN through SSH_ASKPASS. The agent must have been started with
// Options{PKCS11Allow: tok.Module, Env: tok.Env}.
func (a *Agent) AddToken(tok *Token) {
	a.t.Helper()
	askpass := filepath.Join(tok.dir, "askpass")
	if err := os.WriteFile(askpass, []byte("#!/bin/sh\necho "+tok.PIN+"\n"), 0o700); err != nil {
		a.t.Fatal(err)
	}
	tok.run([]string{"SSH_AUTH_SOCK=" + a.Socket, "SSH_ASKPASS=" + askpass, "SSH_ASKPASS_REQUIRE=force", "DISPLAY=:0"}, "ssh-add", "-s", tok.Module)
}

// Fingerprint is the SHA256 fingerprint of a public key (*ecdsa.PublicKey,
// ed25519.PublicKey, …) as 'ssh-add -l -E sha256' prints it.
func Fingerprint(t testing.TB, pub any) string {
	t.Helper()
	sp, err := ssh.NewPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	return ssh.FingerprintSHA256(sp)
}
