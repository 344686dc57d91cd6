package cli

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/agent"

	"github.com/vigil-console/vigil/api"
)

// listingAgent lists the keys it is given, as any process serving on
// SSH_AUTH_SOCK may; it signs nothing.
type listingAgent struct{ keys []*agent.Key }

func (a listingAgent) List() ([]*agent.Key, error) { return a.keys, nil }
func (listingAgent) Sign(ssh.PublicKey, []byte) (*ssh.Signature, error) {
	return nil, errors.New("no")
}
func (listingAgent) Add(agent.AddedKey) error       { return errors.New("no") }
func (listingAgent) Remove(ssh.PublicKey) error     { return errors.New("no") }
func (listingAgent) RemoveAll() error               { return errors.New("no") }
func (listingAgent) Lock([]byte) error              { return errors.New("no") }
func (listingAgent) Unlock([]byte) error            { return errors.New("no") }
func (listingAgent) Signers() ([]ssh.Signer, error) { return nil, errors.New("no") }

func agentKeyOf(t *testing.T, comment string) (*agent.Key, string) {
	t.Helper()
	pub, _, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := ssh.NewPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	return &agent.Key{Format: sp.Type(), Blob: sp.Marshal(), Comment: comment}, ssh.FingerprintSHA256(sp)
}

func runWithAgent(t *testing.T, sock string, args ...string) string {
	t.Helper()
	var out, errOut strings.Builder
	env := map[string]string{"SSH_AUTH_SOCK": sock, "HOME": t.TempDir()}
	c := proc{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut, getenv: func(k string) string { return env[k] }}
	run(context.Background(), c, args)
	return out.String() + errOut.String()
}

// An agent listing one key twice (under two comments): a key named by its
// fingerprint is ambiguous, and the error says so of the fingerprint, not
// of a "comment".
func TestAgentKeyListedTwiceByFingerprintSaysFingerprint(t *testing.T) {
	k, fp := agentKeyOf(t, "one")
	again := *k
	again.Comment = "two"
	sock := serveAgent(t, listingAgent{keys: []*agent.Key{k, &again}})
	all := runWithAgent(t, sock, "keys", "show", "ssh-agent:"+fp)
	if !strings.Contains(all, "have the fingerprint") || strings.Contains(all, "have the comment") {
		t.Errorf("keys show of a fingerprint the agent lists twice:\n%s", all)
	}
}

// A long comment is shortened before it is escaped: an escape sequence at
// the cut is shown whole, never cut in half.
func TestAgentCommentCutKeepsEscapesWhole(t *testing.T) {
	comment := strings.Repeat("a", 59) + "\x1b[2J" + strings.Repeat("b", 20)
	k, _ := agentKeyOf(t, comment)
	sock := serveAgent(t, listingAgent{keys: []*agent.Key{k}})
	all := runWithAgent(t, sock, "keys", "list", "--agent")
	if want := strings.Repeat("a", 59) + api.Sanitize("\x1b"); !strings.Contains(all, want) {
		t.Errorf("keys list --agent does not show the comment's escape whole (%q):\n%s", want, all)
	}
	if strings.ContainsRune(all, '\x1b') {
		t.Errorf("keys list --agent prints the comment's escape raw:\n%q", all)
	}
}
