package profile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// keys_dir and trusted_roots are printed in messages (no key in DIR, …): a
// control character in them is refused at load, with the file, line and key,
// and escaped in that error.
func TestConfigPathsWithControlCharactersAreRefused(t *testing.T) {
	for key, line := range map[string]string{
		"keys_dir":      `keys_dir = "k\u001b]0;owned\u0007\u001b[2J"`,
		"trusted_roots": `trusted_roots = ["root.pem", "r\u001b[2J.pem"]`,
	} {
		path := filepath.Join(t.TempDir(), "config.toml")
		text := "[profiles.p]\nbase_url = \"https://api.example.com\"\norganization_id = \"o\"\n" + line + "\n"
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := Load(path, Checks{})
		if err == nil {
			t.Errorf("%s with control characters loaded", key)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, path+":4") || !strings.Contains(msg, key) || !strings.Contains(msg, "control characters") {
			t.Errorf("%s: error %q does not name %s:4, the key and what is wrong", key, msg, path)
		}
		if strings.ContainsAny(msg, "\x1b\x07") {
			t.Errorf("%s: the error holds raw control characters: %q", key, msg)
		}
	}
}
