package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/keys"
)

// 'keys import --file F' with F readable by group or others imports the key
// but warns that it may be exposed, naming F; a 0600 file draws no warning.
func TestKeysImportWarnsOfAnExposedKeyFile(t *testing.T) {
	for _, mode := range []os.FileMode{0o644, 0o600} {
		k, err := keys.Generate(keys.SchemeP256)
		if err != nil {
			t.Fatal(err)
		}
		src := filepath.Join(t.TempDir(), "ops.hex")
		if err := os.WriteFile(src, []byte(k.PrivateKeyHex()+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(src, mode); err != nil {
			t.Fatal(err)
		}
		code, out, errOut := runCLI(t, t.TempDir(), "", "keys", "import", "--scheme", "p256", "--file", src, "ops")
		if code != 0 {
			t.Fatalf("mode %04o: exit %d:\n%s%s", mode, code, out, errOut)
		}
		warned := strings.Contains(errOut, "exposed") && strings.Contains(errOut, src)
		if want := mode&0o077 != 0; warned != want {
			t.Errorf("mode %04o: warned %v, want %v:\n%s", mode, warned, want, errOut)
		}
	}
}
