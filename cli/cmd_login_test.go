package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
)

// addProfile appends a profile of the demo organization stamping with key.
func (e *verbEnv) addProfile(name, key string) {
	e.t.Helper()
	f, err := os.OpenFile(e.config, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		e.t.Fatal(err)
	}
	defer f.Close()
	fmt.Fprintf(f, "[profiles.%s]\nbase_url = %q\norganization_id = %q\nkey = %q\nkeys_dir = %q\n", name, e.demo.URL, e.demo.Info.OrganizationID, key, e.demo.KeysDir)
}

// An OIDC token becomes a saved API key that authenticates; nothing secret is
// printed or logged; an expired key is refused with a way out.
func TestLoginOAuthSavesAWorkingKeyEndToEnd(t *testing.T) {
	e := newVerbEnv(t)
	ctx := context.Background()
	target, token := e.signInAtProvider("carol")
	targetSecret, _ := os.ReadFile(target)
	tokenFile := filepath.Join(t.TempDir(), "id_token")
	os.WriteFile(tokenFile, []byte(token+"\n"), 0o600)

	var outputs []string
	// --expiration in whole seconds, as a bare number: 600 is 10 minutes.
	code, out, errOut := e.run("", "login", "oauth", "--target-key", target, "--provider-token", tokenFile, "--name", "carol-oauth", "--expiration", "600")
	outputs = append(outputs, out, errOut)
	wantExit(t, "login oauth", code, 0, out, errOut)
	if _, err := os.Stat(target); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the target key, which opens the bundle every member can read, is left at %s: %v", target, err)
	}
	if !strings.Contains(out, e.userID("carol")) || !strings.Contains(out, "carol-oauth") || !strings.Contains(out, "(in 10m)") {
		t.Errorf("login oauth printed:\n%s", out)
	}
	priv, _, _ := keys.Store{Dir: e.demo.KeysDir}.Paths("carol-oauth")
	info, err := os.Stat(priv)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("saved key file: %v %v", info, err)
	}
	privHex, _ := os.ReadFile(priv)

	e.addProfile("carol-oauth", "carol-oauth")
	code, out, errOut = e.run("", "request", "--profile", "carol-oauth", "--path", "/public/v1/query/whoami",
		"--body", fmt.Sprintf(`{"organizationId":%q}`, e.demo.Info.OrganizationID))
	outputs = append(outputs, out, errOut)
	wantExit(t, "whoami with the saved key", code, 0, out, errOut)
	if !strings.Contains(out, e.userID("carol")) {
		t.Errorf("whoami with the saved key: %s", out)
	}

	code, out, errOut = e.run("", "keys", "list", "--dir", e.demo.KeysDir)
	outputs = append(outputs, out, errOut)
	wantExit(t, "keys list", code, 0, out, errOut)
	if !regexp.MustCompile(`carol-oauth .* \d{4}-\d\d-\d\d \d\d:\d\dZ \(in (10m|9m\d+s)\)`).MatchString(out) {
		t.Errorf("keys list does not show the expiry:\n%s", out)
	}

	// Standard input, a short-lived key: once expired, stamping refuses it.
	target2, token2 := e.signInAtProvider("carol")
	code, out, errOut = e.run(token2, "login", "oauth", "--target-key", target2, "--provider-token", "-", "--name", "brief", "--expiration", "1s")
	outputs = append(outputs, out, errOut)
	wantExit(t, "login oauth from stdin", code, 0, out, errOut)
	e.addProfile("brief", "brief")
	time.Sleep(1100 * time.Millisecond)
	code, out, errOut = e.run("", "request", "--profile", "brief", "--path", "/public/v1/query/whoami",
		"--body", fmt.Sprintf(`{"organizationId":%q}`, e.demo.Info.OrganizationID))
	outputs = append(outputs, out, errOut)
	wantExit(t, "an expired key", code, 1, out, errOut)
	if !strings.Contains(errOut, "key expired") || !strings.Contains(errOut, "log in again") {
		t.Errorf("expired key: %s", errOut)
	}
	code, out, errOut = e.run("", "keys", "list", "--dir", e.demo.KeysDir)
	outputs = append(outputs, out, errOut)
	wantExit(t, "keys list", code, 0, out, errOut)
	if !strings.Contains(out, "expired: log in again") {
		t.Errorf("keys list does not mark the expired key:\n%s", out)
	}

	// A name in use is refused before anything is sent; a bad token is refused
	// without echoing it.
	code, out, errOut = e.run("", "login", "oauth", "--target-key", target, "--provider-token", tokenFile, "--name", "carol-oauth")
	outputs = append(outputs, out, errOut)
	wantExit(t, "login under a used name", code, 2, out, errOut)
	forged := token[:len(token)-8] + "AAAAAAAA"
	code, out, errOut = e.run(forged, "login", "oauth", "--provider-token", "-", "--name", "forged")
	outputs = append(outputs, out, errOut)
	wantExit(t, "login with a forged token", code, 1, out, errOut)
	for value, want := range map[string]string{
		"abc":  `invalid value "abc" for flag -expiration: not a lifetime; give whole seconds (3600) or a duration (1h, 90m, 3600s)`,
		"-5":   `invalid value "-5" for flag -expiration: a lifetime cannot be negative; give whole seconds (3600) or a duration (1h, 90m, 3600s)`,
		"1.5s": `invalid value "1.5s" for flag -expiration: not a whole number of seconds; give whole seconds (3600) or a duration (1h, 90m, 3600s)`,
	} {
		code, out, errOut = e.run("", "login", "oauth", "--provider-token", tokenFile, "--name", "bad-lifetime", "--expiration", value)
		wantExit(t, "--expiration "+value, code, 2, out, errOut)
		if !strings.Contains(errOut, want) {
			t.Errorf("--expiration %s: %s, want %q", value, errOut, want)
		}
	}
	code, out, errOut = e.run("", "login", "oauth", "--name", "x")
	wantExit(t, "login without a token", code, 2, out, errOut)
	if _, err := os.Stat(filepath.Join(e.demo.KeysDir, "forged.private")); err == nil {
		t.Error("a failed login left the name it claimed taken")
	}
	// A stray file of a key by that name (no .private) takes the name too:
	// the service makes the key once, and vigil could not save it.
	before := oauthActivities(t, e)
	for _, stray := range []string{"stray.public", "stray.expires"} {
		path := filepath.Join(e.demo.KeysDir, stray)
		os.WriteFile(path, []byte("left over\n"), 0o600)
		_, token3 := e.signInAtProvider("carol")
		code, out, errOut = e.run(token3, "login", "oauth", "--provider-token", "-", "--name", "stray")
		wantExit(t, "login over "+stray, code, 2, out, errOut)
		if !strings.Contains(errOut, path) {
			t.Errorf("login over %s: %s", stray, errOut)
		}
		os.Remove(path)
	}
	if after := oauthActivities(t, e); after != before {
		t.Errorf("a refused login was sent: %d oauth activities, then %d", before, after)
	}

	// The bundle as the service sent it: find the oauth activities.
	acts, err := e.client("alice").ListActivities(ctx, api.ListActivitiesOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var bundles []string
	for _, a := range acts {
		if r := a.Result.OauthResult; r != nil {
			bundles = append(bundles, r.CredentialBundle)
		}
	}
	if len(bundles) < 2 {
		t.Fatalf("found %d oauth results", len(bundles))
	}
	secrets := map[string]string{"token": token, "second token": token2, "forged token": forged, "private key": strings.TrimSpace(string(privHex)),
		"target key": strings.TrimSpace(string(targetSecret))}
	for i, b := range bundles {
		secrets[fmt.Sprintf("bundle %d", i)] = b
	}
	outputs = append(outputs, e.demo.Log.String())
	for what, secret := range secrets {
		for i, o := range outputs {
			if strings.Contains(o, secret) || strings.Contains(o, secret[len(secret)/2:]) {
				t.Errorf("the %s appears in output %d", what, i)
			}
		}
	}
}

// signInAtProvider does what a user does before login oauth: makes a target
// key with 'vigil login oauth-nonce' and gets a token for member from the
// demo's OIDC issuer with the nonce it printed.
func (e *verbEnv) signInAtProvider(member string) (targetFile, token string) {
	e.t.Helper()
	targetFile = filepath.Join(e.t.TempDir(), member+".target")
	code, out, errOut := e.run("", "login", "oauth-nonce", "--target-key", targetFile)
	wantExit(e.t, "login oauth-nonce", code, 0, out, errOut)
	token, err := e.demo.Server.MintDemoOIDCToken(e.demo.Info.OrganizationID, member, strings.TrimSpace(out))
	if err != nil {
		e.t.Fatal(err)
	}
	return targetFile, token
}

func oauthActivities(t *testing.T, e *verbEnv) int {
	t.Helper()
	acts, err := e.client("alice").ListActivities(context.Background(), api.ListActivitiesOptions{Types: []string{api.TypeOauth}})
	if err != nil {
		t.Fatal(err)
	}
	return len(acts)
}

// When the private key of the API key the service has made cannot be saved
// in the keys directory, the error says that the API key exists, where its
// private key is (or that it is nowhere), and what to do either way.
func TestLoginOAuthSaysWhereAnUnsavedKeyIs(t *testing.T) {
	const id = "0192a6c4-7d2e-7c1a-9f00-1b2c3d4e5f60"
	expires := time.Date(2026, 11, 23, 11, 30, 0, 0, time.UTC)
	full := &fs.PathError{Op: "write", Path: "/k/c2-oauth.private", Err: syscall.ENOSPC}
	copied := &keys.NotSavedError{Name: "c2-oauth", Path: "/k/c2-oauth.private", Scheme: keys.SchemeP256, Copy: "/tmp/vigil-c2-oauth-ABCDEFGH.private", Err: full}
	msg := notSavedError(fmt.Errorf("wrapped: %w", copied), id, "carol", expires).Error()
	for _, want := range []string{"the service created API key " + id + " (it expires at 2026-11-23T11:30:00Z)",
		"its private key is in /tmp/vigil-c2-oauth-ABCDEFGH.private (mode 0600)", "free space in /k",
		"'mv /tmp/vigil-c2-oauth-ABCDEFGH.private /k/c2-oauth.private'", "delete it with 'vigil apikey delete --profile carol " + id + "'"} {
		if !strings.Contains(msg, want) {
			t.Errorf("with a copy, the error does not say %q:\n%s", want, msg)
		}
	}
	lost := &keys.NotSavedError{Name: "c2-oauth", Path: "/k/c2-oauth.private", Scheme: keys.SchemeP256, Err: full}
	msg = notSavedError(lost, id, "carol", expires).Error()
	for _, want := range []string{"the service created API key " + id, "could not be saved anywhere", "no space left on device",
		"cannot be used: delete it with 'vigil apikey delete --profile carol " + id + "'"} {
		if !strings.Contains(msg, want) {
			t.Errorf("without a copy, the error does not say %q:\n%s", want, msg)
		}
	}
}
