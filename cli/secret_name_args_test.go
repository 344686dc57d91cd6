package cli

import (
	"strings"
	"testing"

	"github.com/vigil-console/vigil/keys"
)

// 'vigil keys show <private key hex>' (to see a pasted key's public key) is
// a likely mistake: the error must not print the private key back, and must
// say it is to be treated as exposed.
func TestKeysShowDoesNotPrintAPrivateKeyGivenAsName(t *testing.T) {
	k, err := keys.Generate(keys.SchemeP256)
	if err != nil {
		t.Fatal(err)
	}
	secret := k.PrivateKeyHex()
	code, out, errOut := runCLI(t, t.TempDir(), "", "keys", "show", secret)
	if strings.Contains(out+errOut, secret[:16]) || !strings.Contains(errOut, "exposed") {
		t.Errorf("exit %d: keys show prints the private key given as the name:\n%s%s", code, out, errOut)
	}
}

// --recover's --target-key given as the target key's hex (it is "the
// target key") must not be printed back in the error.
func TestRecoverTargetKeyHexIsNotPrinted(t *testing.T) {
	k, err := keys.Generate(keys.SchemeP256)
	if err != nil {
		t.Fatal(err)
	}
	secret := k.PrivateKeyHex()
	t.Chdir(t.TempDir())
	_, _, err = loadRecoveryTarget(keys.Store{Dir: t.TempDir()}, secret)
	if err == nil || strings.Contains(err.Error(), secret[:16]) || !strings.Contains(err.Error(), "exposed") {
		t.Errorf("loadRecoveryTarget(<hex>): %v", err)
	}
}

// 'keys import --file <the key itself>' (the flag takes the key's file, a
// likely slip) must not print the private key back in the "no such file"
// error.
func TestKeysImportFileThatIsTheKeyIsNotPrinted(t *testing.T) {
	k, err := keys.Generate(keys.SchemeP256)
	if err != nil {
		t.Fatal(err)
	}
	secret := k.PrivateKeyHex()
	t.Chdir(t.TempDir())
	code, out, errOut := runCLI(t, t.TempDir(), "", "keys", "import", "--scheme", "p256", "--file", secret, "ops")
	if strings.Contains(out+errOut, secret[:16]) || !strings.Contains(errOut, "exposed") {
		t.Errorf("exit %d: keys import prints the private key given as --file:\n%s%s", code, out, errOut)
	}
}

// login oauth --target-key <the target key's hex>: the "does not exist"
// error must not print it back.
func TestLoginTargetKeyHexIsNotPrinted(t *testing.T) {
	k, err := keys.Generate(keys.SchemeP256)
	if err != nil {
		t.Fatal(err)
	}
	secret := k.PrivateKeyHex()
	t.Chdir(t.TempDir())
	if _, err := loadTargetKey(secret); err == nil || strings.Contains(err.Error(), secret[:16]) || !strings.Contains(err.Error(), "exposed") {
		t.Errorf("loadTargetKey(<hex>): %v", err)
	}
}
