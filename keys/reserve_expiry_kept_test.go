package keys

import (
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// When a login's key cannot be written into the store, Save keeps it
// elsewhere and says how to move it into place. The key's expiry, which
// "cannot be derived" (reserve.go), must survive that: following the advice
// to the letter gives the key back with its expiry, so vigil refuses it once
// expired (docs/keys.md) and keys list shows when, whatever its scheme.
func TestKeptElsewhereKeyKeepsItsExpiry(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh to follow the advice with")
	}
	for _, scheme := range []string{SchemeP256, SchemeEd25519} {
		s := Store{Dir: filepath.Join(t.TempDir(), "keys"), fallbackDirs: []string{t.TempDir()}}
		diskFull(&s, func(path string, write int) bool { return strings.HasSuffix(path, ".private") && write > 1 })
		r, err := s.Reserve("oauth")
		if err != nil {
			t.Fatal(err)
		}
		k, _ := Generate(scheme)
		expires := time.Now().Add(time.Hour).UTC().Truncate(time.Second)
		err = r.Save(k, expires)
		var ns *NotSavedError
		if !errors.As(err, &ns) || ns.Copy == "" {
			t.Fatalf("%s: Save: %v; want a *NotSavedError with a copy", scheme, err)
		}
		// Follow the advice exactly: the command it quotes, in a shell.
		_, cmd, ok := strings.Cut(err.Error(), "move it into place with '")
		if !ok || !strings.HasSuffix(cmd, "'") {
			t.Fatalf("%s: no command in the advice: %v", scheme, err)
		}
		cmd = strings.TrimSuffix(cmd, "'")
		if out, err := exec.Command("sh", "-c", cmd).CombinedOutput(); err != nil {
			t.Fatalf("%s: the advised %q: %v\n%s", scheme, cmd, err, out)
		}
		moved := Store{Dir: s.Dir}
		if got, err := moved.Load("oauth"); err != nil || got.PrivateKeyHex() != k.PrivateKeyHex() {
			t.Fatalf("%s: the key once moved into place: %v", scheme, err)
		}
		got, err := moved.Expiry("oauth")
		if err != nil || !got.Equal(expires) {
			t.Errorf("%s: after the advised %q the key's expiry is %v (%v); want %v: the key would be used past its expiry without vigil knowing", scheme, cmd, got, err, expires)
		}
	}
}
