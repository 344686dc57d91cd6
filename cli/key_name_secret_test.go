package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/keys"
)

// A private key pasted as the profile's key = "…" must be refused without
// being printed: every verb's "no key" error used to quote it.
func TestProfileKeyThatIsAPrivateKeyIsNotPrinted(t *testing.T) {
	k, err := keys.Generate(keys.SchemeP256)
	if err != nil {
		t.Fatal(err)
	}
	secret := k.PrivateKeyHex()
	xdg := t.TempDir()
	cfg := filepath.Join(xdg, "vigil", "config.toml")
	if err := os.MkdirAll(filepath.Dir(cfg), 0o700); err != nil {
		t.Fatal(err)
	}
	conf := "[profiles.p]\nbase_url = \"http://127.0.0.1:1\"\norganization_id = \"o\"\nkey = \"" + secret + "\"\n"
	if err := os.WriteFile(cfg, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, xdg, "", "activity", "list")
	if strings.Contains(out+errOut, secret[:16]) {
		t.Errorf("exit %d: the private key given as the profile's key is printed:\n%s%s", code, out, errOut)
	}
	if code == 0 || !strings.Contains(errOut, "looks like a private key") {
		t.Errorf("exit %d, want a refusal saying the key name looks like a private key:\n%s", code, errOut)
	}
}

// keys import with the key where the name goes must save nothing under it,
// nor print it.
func TestKeysImportRefusesPrivateKeyAsName(t *testing.T) {
	k, err := keys.Generate(keys.SchemeP256)
	if err != nil {
		t.Fatal(err)
	}
	secret := k.PrivateKeyHex()
	xdg := t.TempDir()
	code, out, errOut := runCLI(t, xdg, secret+"\n", "keys", "import", "--scheme", "p256", secret)
	if code != exitUsage || !strings.Contains(errOut, "looks like a private key") {
		t.Errorf("exit %d, want %d and the refusal of the name:\n%s", code, exitUsage, errOut)
	}
	if strings.Contains(out+errOut, secret[:16]) {
		t.Errorf("the private key is printed:\n%s%s", out, errOut)
	}
	if entries, _ := os.ReadDir(filepath.Join(xdg, "vigil", "keys")); len(entries) != 0 {
		t.Errorf("keys import saved %d files under the key's own hex", len(entries))
	}
}
