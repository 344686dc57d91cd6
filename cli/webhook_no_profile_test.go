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
