package cli

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// loginOAuthAs signs member in with 'vigil login oauth --name name extra…'.
func (e *verbEnv) loginOAuthAs(member, name string, extra ...string) (stderr string) {
	e.t.Helper()
	target, token := e.signInAtProvider(member)
	tokenFile := filepath.Join(e.t.TempDir(), "id_token")
	if err := os.WriteFile(tokenFile, []byte(token+"\n"), 0o600); err != nil {
		e.t.Fatal(err)
	}
	args := append([]string{"login", "oauth", "--target-key", target, "--provider-token", tokenFile, "--name", name}, extra...)
	code, out, errOut := e.run("", args...)
	wantExit(e.t, strings.Join(args, " "), code, 0, out, errOut)
	return errOut
}

// apiKeysOf returns the names of member's API keys on the service, the
// OAuth ones and the others apart.
func (e *verbEnv) apiKeysOf(member string) (oauth, others []string) {
	e.t.Helper()
	u, err := e.client("alice").GetUser(context.Background(), e.userID(member))
	if err != nil {
		e.t.Fatal(err)
	}
	for _, k := range u.APIKeys {
		if k.Credential.Type == api.CredentialOauthKeyP256 {
			oauth = append(oauth, k.APIKeyName)
		} else {
			others = append(others, k.APIKeyName)
		}
	}
	return oauth, others
}

// A user whose OAuth key leaked signs in again with --invalidate-existing:
// the service drops the user's other OAuth keys, and only those.
func TestLoginOAuthInvalidateExistingDropsTheOldKeys(t *testing.T) {
	e := newVerbEnv(t)
	_, othersBefore := e.apiKeysOf("carol")
	e.loginOAuthAs("carol", "carol-old")
	e.loginOAuthAs("carol", "carol-spare")
	if oauth, _ := e.apiKeysOf("carol"); len(oauth) != 2 {
		t.Fatalf("two logins left OAuth keys %q, want two", oauth)
	}
	stderr := e.loginOAuthAs("carol", "carol-new", "--invalidate-existing")
	if !strings.Contains(stderr, "other OAuth API keys are invalidated") {
		t.Errorf("login with --invalidate-existing did not say the old keys go:\n%s", stderr)
	}
	oauth, others := e.apiKeysOf("carol")
	if !slices.Equal(oauth, []string{"carol-new"}) {
		t.Errorf("after a login with --invalidate-existing carol's OAuth keys are %q, want only the new one", oauth)
	}
	if !slices.Equal(others, othersBefore) {
		t.Errorf("carol's other keys were %q, now %q: only OAuth keys are invalidated", othersBefore, others)
	}
}

// The key on the service carries --name (or --key-name), so the Users screen
// and 'user get' tell it from the user's other OAuth keys.
func TestLoginOAuthNamesTheServiceKey(t *testing.T) {
	e := newVerbEnv(t)
	e.loginOAuthAs("carol", "carol-laptop")
	e.loginOAuthAs("carol", "carol-ci", "--key-name", "carol CI runner")
	oauth, _ := e.apiKeysOf("carol")
	slices.Sort(oauth)
	if want := []string{"carol CI runner", "carol-laptop"}; !slices.Equal(oauth, want) {
		t.Errorf("carol's OAuth keys on the service are named %q, want %q", oauth, want)
	}
}

// --key-name and --invalidate-existing are for a new login; --recover sends
// nothing, so it refuses them rather than ignore them.
func TestLoginOAuthRecoverRefusesNewLoginFlags(t *testing.T) {
	e := newVerbEnv(t)
	for _, flag := range [][]string{{"--invalidate-existing"}, {"--key-name", "k"}} {
		args := append([]string{"login", "oauth", "--recover", "0192a6c4-7d2e-7c1a-9f00-1b2c3d4e5f60", "--target-key", "t"}, flag...)
		code, out, errOut := e.run("", args...)
		wantExit(t, strings.Join(args, " "), code, 2, out, errOut)
		if !strings.Contains(errOut, flag[0]) {
			t.Errorf("%s refused without naming it:\n%s", flag[0], errOut)
		}
	}
}
