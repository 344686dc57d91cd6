package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// webhook verify and keys given no --jwks, with no config to take the key
// set's URL from, were told too little: that is a usage mistake (exit 2)
// whose message names --jwks and a profile as the two ways to fix it.
func TestWebhookVerbsWithoutJWKSOrProfileAreUsageErrors(t *testing.T) {
	dir := t.TempDir()
	body := filepath.Join(dir, "d.body")
	if err := os.WriteFile(body, []byte(`{"organizationId":"o1"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"XDG_CONFIG_HOME": t.TempDir(), "VIGIL_CONFIG": filepath.Join(dir, "missing.toml")}
	for _, args := range [][]string{
		{"webhook", "verify", "--body", body, "--header", "X-A: b", "--organization", "o1"},
		{"webhook", "verify", "--body", body, "--header", "X-A: b"},
		{"webhook", "keys"},
	} {
		code, _, errOut := runVigil(t, env, "", args...)
		if code != exitUsage {
			t.Errorf("vigil %v: exit %d, want %d (a usage mistake)\n%s", args, code, exitUsage, errOut)
		}
		for _, want := range []string{"--jwks", "profile", "no config file at"} {
			if !strings.Contains(errOut, want) {
				t.Errorf("vigil %v: the message does not say %q:\n%s", args, want, errOut)
			}
		}
	}
}

// A --jwks URL holding a private key as its host (or path) is refused as a
// usage mistake before its host goes to the resolver; the message describes
// it without quoting it.
func TestWebhookJWKSURLHoldingAPrivateKeyIsRefusedBeforeFetching(t *testing.T) {
	const hexKey = "6b4d2f1a9c0e3b4d5a6f7e8d9c0b1a2f3e4d5c6b7a8f9e0d1c2b3a4f5e6d7c8b"
	dir := t.TempDir()
	body := filepath.Join(dir, "d.body")
	if err := os.WriteFile(body, []byte(`{"organizationId":"o1"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"XDG_CONFIG_HOME": t.TempDir(), "VIGIL_CONFIG": filepath.Join(dir, "missing.toml")}
	for _, jwks := range []string{"https://" + hexKey + "/", "https://127.0.0.1:1/" + hexKey} {
		for _, args := range [][]string{
			{"webhook", "keys", "--jwks", jwks},
			{"webhook", "verify", "--jwks", jwks, "--organization", "o1", "--body", body, "--header", "X-A: b"},
		} {
			code, out, errOut := runVigil(t, env, "", args...)
			if code != exitUsage || !strings.Contains(errOut, "look like a private key") {
				t.Errorf("vigil %s …: exit %d, want %d saying the URL looks like a private key\n%s%s", args[1], code, exitUsage, out, errOut)
			}
			if strings.Contains(out+errOut, hexKey[:16]) {
				t.Errorf("vigil %s …: the key is printed:\n%s%s", args[1], out, errOut)
			}
		}
	}
}
