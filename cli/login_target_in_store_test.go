package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/keys"
)

// `login oauth --target-key FILE` deletes FILE once the API key is saved:
// a key of the keys directory given as FILE (its .private file, a symlink
// to it, or a hard link) must never be that file. A stored P-256 key reads
// exactly like a target key oauth-nonce writes, so a login that takes it
// would delete a key the user signs with.
func TestLoginOAuthNeverDeletesAKeyOfTheKeysDirectory(t *testing.T) {
	e := newVerbEnv(t)
	store := keys.Store{Dir: e.demo.KeysDir}
	if _, err := store.Generate("ops", keys.SchemeP256); err != nil {
		t.Fatal(err)
	}
	priv, _, _ := store.Paths("ops")
	want, err := os.ReadFile(priv)
	if err != nil {
		t.Fatal(err)
	}
	target, err := loadTargetKey(priv)
	if err != nil {
		t.Fatalf("precondition: a stored P-256 key reads as a target key: %v", err)
	}
	outside := t.TempDir()
	symlink := filepath.Join(outside, "ops.symlink")
	if err := os.Symlink(priv, symlink); err != nil {
		t.Fatal(err)
	}
	hardlink := filepath.Join(outside, "ops.hardlink")
	if err := os.Link(priv, hardlink); err != nil {
		t.Fatal(err)
	}
	for i, given := range []string{priv, symlink, hardlink} {
		token, err := e.demo.Server.MintDemoOIDCToken(e.demo.Info.OrganizationID, "carol", oauthNonce(target))
		if err != nil {
			t.Fatal(err)
		}
		before := oauthActivities(t, e)
		code, out, errOut := e.run(token, "login", "oauth", "--target-key", given, "--provider-token", "-", "--name", "carol-"+string(rune('a'+i)))
		if code != 2 {
			t.Errorf("--target-key %s: exit %d, want 2 (refused)\n%s\n%s", given, code, out, errOut)
		}
		if !strings.Contains(errOut, "keys directory") {
			t.Errorf("--target-key %s: the refusal does not say the file is a key of the keys directory:\n%s", given, errOut)
		}
		if after := oauthActivities(t, e); after != before {
			t.Errorf("--target-key %s: the login was sent (%d oauth activities, then %d)", given, before, after)
		}
		if got, err := os.ReadFile(priv); err != nil || string(got) != string(want) {
			t.Fatalf("--target-key %s: the stored key ops is gone or changed: %v", given, err)
		}
		if _, err := os.Lstat(given); err != nil {
			t.Errorf("--target-key %s was removed: %v", given, err)
		}
	}
	os.Remove(hardlink) // the store refuses a key file of two names
	if _, err := store.Load("ops"); err != nil {
		t.Errorf("the stored key ops no longer loads: %v", err)
	}
}
