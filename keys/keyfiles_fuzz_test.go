package keys

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzKeyFiles loads a key whose files (.private, .public, .scheme,
// .expires) hold arbitrary text, as damage, an editor or another tool may
// leave them: Load, Info and List never panic, a loaded key is the one its
// private key file holds, and no message shows 16 hex digits in a row of
// the private key file.
func FuzzKeyFiles(f *testing.F) {
	k, err := Generate(SchemeEd25519)
	if err != nil {
		f.Fatal(err)
	}
	priv := k.PrivateKeyHex()
	f.Add(priv+"\n", k.PublicKeyHex()+"\n", "ed25519\n", "")
	f.Add(priv, "", "", "2030-01-01T00:00:00Z")
	f.Add(priv+"\n"+priv, "x", priv, "yesterday")
	f.Add("p256 "+priv[:32], priv, "p256 "+priv[:32], "")
	// A scheme line short enough to quote, holding part of the key.
	f.Add(priv+"\n", "", "ed25519 "+priv[:30]+"\n", "")
	f.Add("", "", "\n", "")
	f.Fuzz(func(t *testing.T, privText, pubText, schemeText, expiresText string) {
		dir := filepath.Join(t.TempDir(), "keys")
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		for ext, text := range map[string]string{".private": privText, ".public": pubText, ".scheme": schemeText, ".expires": expiresText} {
			if text == "" && ext != ".private" {
				continue
			}
			if err := os.WriteFile(filepath.Join(dir, "k"+ext), []byte(text), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		s := Store{Dir: dir}
		var secretRuns []string
		for _, run := range strings.FieldsFunc(privText, func(r rune) bool { return !isHexDigit(r) }) {
			if len(run) >= 16 {
				secretRuns = append(secretRuns, strings.ToLower(run))
			}
		}
		shows := func(what string, err error) {
			if err == nil {
				return
			}
			msg := strings.ToLower(err.Error())
			for _, run := range secretRuns {
				for i := 0; i+16 <= len(run); i++ {
					if strings.Contains(msg, run[i:i+16]) {
						t.Fatalf("%s shows the private key file's digits %q: %v", what, run[i:i+16], err)
					}
				}
			}
		}
		loaded, err := s.Load("k")
		shows("Load", err)
		if err == nil {
			line := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(privText), "\uFEFF"))
			if want, perr := ParsePrivateHex(loaded.Scheme(), line); perr != nil || want.PublicKeyHex() != loaded.PublicKeyHex() {
				t.Fatalf("loaded key %s is not the file's %q: %v", loaded.PublicKeyHex(), privText, perr)
			}
		}
		_, err = s.Info("k")
		shows("Info", err)
		_, err = s.List()
		shows("List", err)
	})
}
