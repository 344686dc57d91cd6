package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/keys"
)

// Without --target-key, login oauth makes the target key, prints its nonce,
// and only then reads the token, which the user got with that nonce.
func TestLoginOAuthPrintsTheNonceThenReadsTheToken(t *testing.T) {
	e := newVerbEnv(t)
	out, errOut, err := pasteLogin(t, e, "carol", func(c proc) error {
		if code := run(context.Background(), c, []string{"login", "oauth", "--provider-token", "-", "--name", "pasted"}); code != 0 {
			return fmt.Errorf("exit %d", code)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("login oauth with a pasted token: %v\n%s\n%s", err, out, errOut)
	}
	if !strings.Contains(out, e.userID("carol")) {
		t.Errorf("login oauth printed:\n%s", out)
	}
	// The fresh target key, saved before the login was sent, opens the
	// bundle every member can read: once the key is saved it is gone, and
	// the name is free for the next login.
	store := keys.Store{Dir: e.demo.KeysDir}
	for _, path := range keyFiles(store, "pasted-target") {
		if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("the target key's %s is left after the login: %v", path, err)
		}
	}
}

// A login the service refuses made no API key: its fresh target key,
// saved before sending, is removed, so the same --name can log in again.
func TestLoginOAuthRefusedLeavesNoTargetKey(t *testing.T) {
	e := newVerbEnv(t)
	code, out, errOut := e.run("eyJhbGciOiJSUzI1NiJ9.e30.forged\n", "login", "oauth", "--provider-token", "-", "--name", "refused")
	wantExit(t, "login oauth with a forged token", code, 1, out, errOut)
	store := keys.Store{Dir: e.demo.KeysDir}
	for _, name := range []string{"refused", "refused-target"} {
		for _, path := range keyFiles(store, name) {
			if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("%s is left after a refused login: %v\n%s", path, err, errOut)
			}
		}
	}
}

// keyFiles are the paths of every file of the stored key name.
func keyFiles(store keys.Store, name string) []string {
	priv, pub, sch := store.Paths(name)
	return []string{priv, pub, sch}
}

// pasteLogin runs login (a login oauth that makes its own target key) as a
// user does: it waits for the nonce login prints, gets a token for member
// with that nonce from the demo's OIDC issuer, and pastes the token. It
// returns what login printed and its error.
func pasteLogin(t *testing.T, e *verbEnv, member string, login func(c proc) error) (out, errOut string, err error) {
	t.Helper()
	stdin, typing := io.Pipe()
	var stdout, stderr syncBuffer
	c := proc{stdin: stdin, stdout: &stdout, stderr: &stderr, getenv: func(k string) string {
		if k == "VIGIL_CONFIG" {
			return e.config
		}
		return ""
	}}
	done := make(chan error, 1)
	go func() { done <- login(c) }()
	nonceLine := regexp.MustCompile(`nonce: ([0-9a-f]{64})\n`)
	var nonce string
	for deadline := time.Now().Add(10 * time.Second); nonce == ""; time.Sleep(10 * time.Millisecond) {
		if m := nonceLine.FindStringSubmatch(stderr.String()); m != nil {
			nonce = m[1]
		} else if time.Now().After(deadline) {
			typing.Close()
			t.Fatalf("no nonce printed:\n%s", stderr.String())
		}
	}
	token, err := e.demo.Server.MintDemoOIDCToken(e.demo.Info.OrganizationID, member, nonce)
	if err != nil {
		typing.Close()
		t.Fatal(err)
	}
	io.WriteString(typing, token+"\n")
	typing.Close()
	err = <-done
	return stdout.String(), stderr.String(), err
}

// A token issued for another sign-in's target key is refused before any
// activity is recorded, saying what the nonce should be; the target key
// and the name are left for a retry.
func TestLoginOAuthRefusesATokenOfAnotherTargetKey(t *testing.T) {
	e := newVerbEnv(t)
	_, token := e.signInAtProvider("carol")
	mine, _ := e.signInAtProvider("carol")
	before := oauthActivities(t, e)
	code, out, errOut := e.run(token, "login", "oauth", "--target-key", mine, "--provider-token", "-", "--name", "carol-oauth")
	wantExit(t, "login oauth with another sign-in's token", code, 1, out, errOut)
	if !strings.Contains(errOut, "nonce") || !strings.Contains(errOut, "OIDC_NONCE_MISMATCH") {
		t.Errorf("refusal does not name the nonce: %s", errOut)
	}
	if after := oauthActivities(t, e); after != before {
		t.Errorf("the refused login was recorded: %d oauth activities, then %d", before, after)
	}
	if _, err := os.Stat(mine); err != nil {
		t.Errorf("the target key of a failed login was removed: %v", err)
	}
	if _, err := os.Stat(filepath.Join(e.demo.KeysDir, "carol-oauth.private")); err == nil {
		t.Error("the failed login left its name taken")
	}
}

func TestLoginOAuthTargetKeyMistakes(t *testing.T) {
	e := newVerbEnv(t)
	dir := t.TempDir()
	tokenFile := filepath.Join(dir, "id_token")
	os.WriteFile(tokenFile, []byte("a.b.c\n"), 0o600)
	existing := filepath.Join(dir, "existing.target")
	os.WriteFile(existing, []byte("keep me\n"), 0o600)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"login", "oauth", "--provider-token", tokenFile}, "needs --target-key FILE"},
		{[]string{"login", "oauth", "--provider-token", tokenFile, "--target-key", filepath.Join(dir, "none")}, "make it with 'vigil login oauth-nonce --target-key"},
		{[]string{"login", "oauth", "--provider-token", tokenFile, "--target-key", existing}, "is not a target key made by 'vigil login oauth-nonce'"},
		{[]string{"login", "oauth-nonce"}, "--target-key FILE is required"},
		{[]string{"login", "oauth-nonce", "--target-key", existing}, "exists; choose another file"},
	} {
		code, out, errOut := e.run("", c.args...)
		wantExit(t, strings.Join(c.args, " "), code, 2, out, errOut)
		if !strings.Contains(errOut, c.want) {
			t.Errorf("%v: %s, want %q", c.args, errOut, c.want)
		}
	}
	if b, _ := os.ReadFile(existing); string(b) != "keep me\n" {
		t.Errorf("oauth-nonce overwrote an existing file: %q", b)
	}
}
