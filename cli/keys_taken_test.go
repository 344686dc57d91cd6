package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/keys"
)

// A key name taken by, or beside, the target key a 'vigil login oauth' kept
// (NAME-target) is refused with what that key is and what to do: finish the
// login with --recover, since it may be the only key that opens an API key
// the service made, and only then remove it, with the command to do so.
func TestKeysGenerateOverALoginsTargetKeySaysHowToFinishTheLogin(t *testing.T) {
	xdg := t.TempDir()
	store := keys.Store{Dir: filepath.Join(xdg, "vigil", "keys")}
	if _, err := store.Generate("carol-target", keys.SchemeP256); err != nil {
		t.Fatal(err)
	}
	target, _, _ := store.Paths("carol-target")

	// The kept target key itself.
	code, out, errOut := runCLI(t, xdg, "", "keys", "generate", "carol-target")
	wantExit(t, "keys generate over a kept target key", code, 1, out, errOut)
	for _, want := range []string{target, "--recover ACTIVITY_ID --target-key carol-target --name carol", "vigil activity list --type oauth", "rm " + target} {
		if !strings.Contains(errOut, want) {
			t.Errorf("the refusal does not say %q:\n%s", want, errOut)
		}
	}

	// The placeholder of the login that kept it, which --recover finishes.
	if _, err := store.Reserve("carol"); err != nil {
		t.Fatal(err)
	}
	placeholder, _, _ := store.Paths("carol")
	code, out, errOut = runCLI(t, xdg, "", "keys", "import", "--scheme", "p256", "--file", writeHexKey(t), "carol")
	wantExit(t, "keys import over a login's placeholder", code, 1, out, errOut)
	for _, want := range []string{placeholder, "carol-target", "--recover ACTIVITY_ID --target-key carol-target --name carol"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("the refusal does not say %q:\n%s", want, errOut)
		}
	}

	// A key beside a leftover target key: the target key is named, with how
	// to remove it.
	if _, err := store.Generate("dave", keys.SchemeP256); err != nil {
		t.Fatal(err)
	}
	if _, err := store.Generate("dave-target", keys.SchemeP256); err != nil {
		t.Fatal(err)
	}
	daveTarget, _, _ := store.Paths("dave-target")
	code, out, errOut = runCLI(t, xdg, "", "keys", "generate", "dave")
	wantExit(t, "keys generate over a key beside a kept target key", code, 1, out, errOut)
	for _, want := range []string{"already exists", "dave-target", "rm " + daveTarget} {
		if !strings.Contains(errOut, want) {
			t.Errorf("the refusal does not say %q:\n%s", want, errOut)
		}
	}

	// Nothing was removed or replaced.
	for _, name := range []string{"carol-target", "dave", "dave-target"} {
		if _, err := store.Load(name); err != nil {
			t.Errorf("key %s: %v", name, err)
		}
	}
	if _, err := os.Stat(placeholder); err != nil {
		t.Errorf("the placeholder went: %v", err)

	}
}

func writeHexKey(t *testing.T) string {
	t.Helper()
	k, err := keys.Generate(keys.SchemeP256)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "key.hex")
	if err := os.WriteFile(path, []byte(k.PrivateKeyHex()+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}
