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
	const b64urlKey = "JLli3nseAVclDYBE50ri8Oxs3TJ-33mvBjIB6_7ucqM"
	for _, tc := range []struct{ key, value, want string }{
		{"base_url", hexKey, "URL"},
		{"auth_proxy_url", b64Key, "URL"},
		{"keys_dir", hexKey, "directory"},
		{"keys_dir", b64Key, "directory"},
		// A key as the host, or in the path, user info or query, of an
		// otherwise well-formed URL: its host would go to the resolver and
		// come back in "cannot resolve the host …".
		{"base_url", "https://" + hexKey, "URL"},
		{"base_url", "https://" + b64urlKey, "URL"},
		{"base_url", "https://" + hexKey + ".example.com:8443", "URL"},
		{"base_url", "https://api.example.com/" + hexKey, "URL"},
		{"base_url", "https://api.example.com/gw/" + b64urlKey + "/public/v1", "URL"},
		{"base_url", "https://ops:" + hexKey + "@api.example.com", "URL"},
		{"base_url", "https://api.example.com/?k=" + b64urlKey, "URL"},
		{"auth_proxy_url", "https://" + hexKey + "/", "URL"},
	} {
		text := "[profiles.p]\norganization_id = \"o\"\n" + tc.key + " = \"" + tc.value + "\"\n"
		_, path, err := loadText(t, text)
		if err == nil {
			t.Errorf("%s = <a private key> loaded", tc.key)
			continue
		}
		msg := err.Error()
		for _, key := range []string{hexKey, b64Key, b64urlKey} {
			if strings.Contains(msg, key[len(key)-16:]) || strings.Contains(msg, key[:16]) {
				t.Errorf("%s = <a private key>: the error prints it: %s", tc.key, msg)
			}
		}
		for _, want := range []string{path, tc.key, "look like a private key", tc.want, "treat that key as exposed"} {
			if !strings.Contains(msg, want) {
				t.Errorf("%s = <a private key>: error %q does not say %q", tc.key, msg, want)
			}
		}
	}
	// Ids in a URL are not keys: a 32-digit hex path segment, a host label
	// of 32 letters and digits (a cloud function's URL), a UUID.
	for _, u := range []string{
		"https://api.example.com/t/0123456789abcdef0123456789abcdef",
		"https://abcdefghij0123456789klmnopqrstuv.lambda-url.us-east-1.on.aws",
		"https://1b4e28ba-2fa1-11d2-883f-0016d3cca427.example.com",
		// An IPv6 literal written out in full; ids in successive segments.
		"https://[2001:0db8:85a3:0000:0000:8a2e:0370:7334]:8443",
		"https://gw.example.com/tenants/Xy7kP2qR9mN4vB8cL1dF6gH3jK5sT0wE",
	} {
		if _, _, err := loadText(t, "[profiles.p]\norganization_id = \"o\"\nbase_url = \""+u+"\"\n"); err != nil {
			t.Errorf("base_url = %q is refused: %v", u, err)
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

// A private key pasted after "ssh-agent:SHA256:" in a key line reads as a
// malformed fingerprint: the refusal says so without quoting it.
func TestAgentKeyLineHoldingAPrivateKeyIsNotShown(t *testing.T) {
	const b64Key = "JLli3nseAVclDYBE50ri8Oxs3TJ+33mvBjIB6+7ucqM="
	_, path, err := loadText(t, "[profiles.p]\norganization_id = \"o\"\nkey = \"ssh-agent:SHA256:"+b64Key+"\"\n")
	if err == nil {
		t.Fatal("a key line with a malformed fingerprint is accepted")
	}
	msg := err.Error()
	if strings.Contains(msg, b64Key[:16]) || strings.Contains(msg, b64Key[len(b64Key)-16:]) {
		t.Errorf("the refusal prints the key: %s", msg)
	}
	for _, want := range []string{path, "key", "look like a private key"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the refusal lacks %q: %s", want, msg)
		}
	}
}
