package cli

import (
	"strings"
	"testing"

	"github.com/vigil-console/vigil/keys"
)

// A private key pasted after a command that takes no arguments ('vigil keys
// list <key>', meant for 'keys import') is refused without being printed a
// second time; an ordinary stray argument is still quoted, so the user sees
// what to remove.
func TestStrayArgumentPrivateKeyIsNotPrinted(t *testing.T) {
	k, err := keys.Generate(keys.SchemeP256)
	if err != nil {
		t.Fatal(err)
	}
	secret := k.PrivateKeyHex()
	for _, cmd := range [][]string{{"keys", "list"}, {"version"}, {"stamp"}, {"user", "list"}, {"activity", "list"}} {
		name := strings.Join(cmd, " ")
		code, out, errOut := runCLI(t, t.TempDir(), "", append(cmd, secret)...)
		if code != 2 || !strings.Contains(errOut, "takes no arguments") {
			t.Errorf("vigil %s <private key>: exit %d, %q; want a usage error", name, code, errOut)
		}
		if strings.Contains(out+errOut, secret[:16]) {
			t.Errorf("vigil %s <private key>: the key is printed back:\n%s%s", name, out, errOut)
		}
		if !strings.Contains(errOut, "look like a private key") {
			t.Errorf("vigil %s <private key>: %q does not say the argument looks like a private key", name, errOut)
		}
		code, _, errOut = runCLI(t, t.TempDir(), "", append(cmd, "extra", "more")...)
		if code != 2 || !strings.Contains(errOut, `"extra" and 1 more`) {
			t.Errorf("vigil %s extra more: exit %d, %q; want the stray argument quoted", name, code, errOut)
		}
	}
}
