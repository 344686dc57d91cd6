package cli

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys/agenttest"
)

// shortStdout takes the first n bytes written to it and refuses the rest with
// err, as a disk that fills up (ENOSPC) or a reader that goes away (EPIPE)
// while a command prints.
type shortStdout struct {
	n   int
	err error
	got bytes.Buffer
}

func (w *shortStdout) Write(p []byte) (int, error) {
	if w.got.Len()+len(p) > w.n {
		k := max(w.n-w.got.Len(), 0)
		w.got.Write(p[:k])
		return k, w.err
	}
	return w.got.Write(p)
}

// printCase is a verb whose whole output is its result. args is called
// before every run, so that a verb that creates something (keys generate)
// gets a fresh place each time.
type printCase struct {
	name string
	env  map[string]string
	args func() []string
}

// checkResultNotPrinted runs each case once whole (exit 0, some output), then
// with standard output refusing writes from the start and from near the end
// (32 bytes before it: a stamp's length varies with its signature's from run
// to run) on: a result that was not written whole is not "done"
// (docs/cli.md). A disk-full error exits 1 and says so; a closed pipe exits
// 141, quietly.
func checkResultNotPrinted(t *testing.T, cases []printCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runVigil(t, tc.env, "", tc.args()...)
			wantExit(t, tc.name, code, exitOK, out, errOut)
			if out == "" {
				t.Fatalf("%s printed nothing to cut short", tc.name)
			}
			runShort := func(w *shortStdout) (int, string) {
				var errOut bytes.Buffer
				c := proc{stdin: strings.NewReader(""), stdout: w, stderr: &errOut, getenv: func(k string) string { return tc.env[k] }}
				return run(context.Background(), c, tc.args()), errOut.String()
			}
			for _, keep := range []int{0, max(len(out)-32, 0)} {
				w := &shortStdout{n: keep, err: syscall.ENOSPC}
				code, errOut := runShort(w)
				if code != exitFailure || !strings.Contains(errOut, "no space left on device") {
					t.Errorf("%s: standard output full after %d of %d bytes: exit %d, stderr %q; want exit %d saying the disk is full",
						tc.name, keep, len(out), code, errOut, exitFailure)
				}
			}
			closed := &shortStdout{n: 0, err: &os.PathError{Op: "write", Path: os.Stdout.Name(), Err: syscall.EPIPE}}
			if code, errOut := runShort(closed); code != exitStdoutClosed {
				t.Errorf("%s: standard output closed: exit %d, stderr %q; want %d", tc.name, code, errOut, exitStdoutClosed)
			}
		})
	}
}

func TestResultNotPrintedIsNotSuccess(t *testing.T) {
	e := newVerbEnv(t)
	ctx := context.Background()
	pending, err := e.client("alice").ListActivities(ctx, api.ListActivitiesOptions{Statuses: []string{api.StatusConsensusNeeded},
		Types: []string{api.TypeDeleteAPIKeys}, Limit: 10})
	if err != nil || len(pending) != 1 {
		t.Fatalf("the demo has one pending delete_api_keys: %v %v", pending, err)
	}
	env := map[string]string{"VIGIL_CONFIG": e.config}
	fixed := func(args ...string) func() []string { return func() []string { return args } }

	body := `{"organizationId":"x"}`
	code, stamp, errOut := e.run("", "stamp", "--key", "alice", "--dir", e.demo.KeysDir, "--body", body)
	wantExit(t, "stamp", code, exitOK, stamp, errOut)

	keyFile := filepath.Join(t.TempDir(), "key.hex")
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	priv, err := k.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, []byte(hex.EncodeToString(priv)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}

	checkResultNotPrinted(t, []printCase{
		{"stamp", env, fixed("stamp", "--key", "alice", "--dir", e.demo.KeysDir, "--body", body)},
		{"stamp --verify", env, fixed("stamp", "--verify", strings.TrimSpace(stamp), "--body", body)},
		{"onramp status", env, fixed("onramp", "status", "onramp-demo-1")},
		{"policy check", env, fixed("policy", "check", "--condition", "true")},
		{"policy simulate", env, fixed("policy", "simulate", "--activity", pending[0].ID, "--effect", "deny", "--condition", "true")},
		{"feature list", env, fixed("feature", "list")},
		{"keys generate", env, func() []string { return []string{"keys", "generate", "--dir", t.TempDir(), "ops"} }},
		{"keys import", env, func() []string {
			return []string{"keys", "import", "--scheme", "p256", "--file", keyFile, "--dir", t.TempDir(), "ops"}
		}},
		{"keys show", env, fixed("keys", "show", "--dir", e.demo.KeysDir, "alice")},
		{"keys list, none", env, func() []string { return []string{"keys", "list", "--dir", t.TempDir()} }},
		{"proof verify", env, fixed("proof", "verify", "--boot-proof", proofFixtures+"turnkey_boot_proof_1.json")},
		{"version", env, fixed("version")},
	})
}

func TestAgentKeysNotPrintedIsNotSuccess(t *testing.T) {
	a := agenttest.Start(t, agenttest.Options{})
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	a.Add(k, "ops")
	env := map[string]string{"SSH_AUTH_SOCK": a.Socket, "HOME": t.TempDir()}
	ref := "ssh-agent:" + agenttest.Fingerprint(t, &k.PublicKey)
	checkResultNotPrinted(t, []printCase{
		{"keys list --agent", env, func() []string { return []string{"keys", "list", "--agent"} }},
		{"keys show agent key", env, func() []string { return []string{"keys", "show", ref} }},
	})
}

// login oauth-nonce whose nonce cannot be printed leaves nothing behind (no
// sign-in can have used it) and says so, so running it again works; it never
// told the user to sign in with a nonce that was not shown.
func TestOAuthNonceNotPrintedLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "carol.target")
	var errOut bytes.Buffer
	c := proc{stdin: strings.NewReader(""), stdout: &shortStdout{n: 0, err: syscall.ENOSPC}, stderr: &errOut, getenv: func(string) string { return "" }}
	code := run(context.Background(), c, []string{"login", "oauth-nonce", "--target-key", target})
	if code != exitFailure || !strings.Contains(errOut.String(), "nonce could not be printed") || !strings.Contains(errOut.String(), "removed") {
		t.Errorf("nonce not printed: exit %d, stderr %q; want exit %d saying the nonce was not printed and the file removed", code, errOut.String(), exitFailure)
	}
	if strings.Contains(errOut.String(), "sign in at the provider") {
		t.Errorf("told to sign in with a nonce that was never shown: %q", errOut.String())
	}
	if _, err := os.Stat(target); !os.IsNotExist(err) {
		t.Errorf("the target key of a nonce nobody saw is still there: %v", err)
	}
	code, out, errOut2 := runCLI(t, dir, "", "login", "oauth-nonce", "--target-key", target)
	if code != exitOK || strings.TrimSpace(out) == "" {
		t.Errorf("running it again: exit %d, stdout %q, stderr %q", code, out, errOut2)
	}
}
