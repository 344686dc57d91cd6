//go:build linux

package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/keys"
)

// keys import reading the private key from a terminal asks for it on standard
// error and does not echo it: a pasted key must not land on the screen, in
// scrollback or in a terminal log.
func TestKeysImportHidesThePrivateKeyTypedOnATerminal(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "keys")
	const priv = "c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721"
	code, out, errOut, echoed := runOnPTY(t, func(string) string { return "" }, "private key (hex) of pasted", priv+"\n",
		"keys", "import", "--scheme", "p256", "--dir", dir, "pasted")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	if strings.Contains(echoed, priv) || strings.Contains(out+errOut, priv) {
		t.Fatalf("the private key was shown: terminal %q, stdout %q, stderr %q", echoed, out, errOut)
	}
	k, err := (keys.Store{Dir: dir}).Load("pasted")
	if err != nil {
		t.Fatal(err)
	}
	if k.PrivateKeyHex() != priv {
		t.Fatal("the key stored is not the one typed")
	}
}
