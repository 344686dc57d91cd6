package cli

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// Without --target-key, login oauth makes the target key, prints its nonce,
// and only then reads the token, which the user got with that nonce.
func TestLoginOAuthPrintsTheNonceThenReadsTheToken(t *testing.T) {
	e := newVerbEnv(t)
	stdin, typing := io.Pipe()
	var out, errOut syncBuffer
	c := proc{stdin: stdin, stdout: &out, stderr: &errOut, getenv: func(k string) string {
		if k == "VIGIL_CONFIG" {
			return e.config
		}
		return ""
	}}
	done := make(chan int, 1)
	go func() {
		done <- run(context.Background(), c, []string{"login", "oauth", "--provider-token", "-", "--name", "pasted"})
	}()
	nonceLine := regexp.MustCompile(`nonce: ([0-9a-f]{64})\n`)
	var nonce string
	for deadline := time.Now().Add(10 * time.Second); nonce == ""; time.Sleep(10 * time.Millisecond) {
		if m := nonceLine.FindStringSubmatch(errOut.String()); m != nil {
			nonce = m[1]
		} else if time.Now().After(deadline) {
			t.Fatalf("no nonce printed:\n%s", errOut.String())
		}
	}
	token, err := e.demo.Server.MintDemoOIDCToken(e.demo.Info.OrganizationID, "carol", nonce)
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(typing, token+"\n")
	typing.Close()
	code := <-done
	wantExit(t, "login oauth with a pasted token", code, 0, out.String(), errOut.String())
	if !strings.Contains(out.String(), e.userID("carol")) {
		t.Errorf("login oauth printed:\n%s", out.String())
	}
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
