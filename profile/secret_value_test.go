package profile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A private key pasted into a config's base_url, auth_proxy_url or keys_dir
// line is refused without being printed back (the error reaches the
// terminal, its scrollback and CI logs), as the key line's is, and the
// error still names the line and says what the value should be.
func TestPrivateKeyInAPathOrURLLineIsNotShown(t *testing.T) {
	const hexKey = "6b4d2f1a9c0e3b4d5a6f7e8d9c0b1a2f3e4d5c6b7a8f9e0d1c2b3a4f5e6d7c8b"
	const b64Key = "JLli3nseAVclDYBE50ri8Oxs3TJ+33mvBjIB6+7ucqM="
	for _, tc := range []struct{ key, value, want string }{
		{"base_url", hexKey, "URL"},
		{"auth_proxy_url", b64Key, "URL"},
		{"keys_dir", hexKey, "directory"},
		{"keys_dir", b64Key, "directory"},
	} {
		text := "[profiles.p]\norganization_id = \"o\"\n" + tc.key + " = \"" + tc.value + "\"\n"
		_, path, err := loadText(t, text)
		if err == nil {
			t.Errorf("%s = <a private key> loaded", tc.key)
			continue
		}
		msg := err.Error()
		if strings.Contains(msg, tc.value[len(tc.value)-16:]) || strings.Contains(msg, tc.value[:16]) {
			t.Errorf("%s = <a private key>: the error prints it: %s", tc.key, msg)
		}
		for _, want := range []string{path, tc.key, "look like a private key", tc.want, "treat that key as exposed"} {
			if !strings.Contains(msg, want) {
				t.Errorf("%s = <a private key>: error %q does not say %q", tc.key, msg, want)
			}
		}
	}
	// A keys directory that exists is kept, whatever its name.
	dir := filepath.Join(t.TempDir(), hexKey)
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if _, _, err := loadText(t, "[profiles.p]\norganization_id = \"o\"\nkeys_dir = \""+dir+"\"\n"); err != nil {
		t.Errorf("an existing keys directory named like a key is refused: %v", err)
	}
}
