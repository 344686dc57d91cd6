package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A config whose keys_dir holds escape sequences: the keys verbs and the
// profile verbs refuse the config, and print neither the raw path nor its
// control characters.
func TestKeysDirControlCharactersNeverReachTheTerminal(t *testing.T) {
	home, cfgDir := t.TempDir(), t.TempDir()
	config := filepath.Join(cfgDir, "config.toml")
	const toml = `[profiles.p]
base_url = "https://api.example.com"
organization_id = "o"
key = "ops"
keys_dir = "k\u001b]0;owned\u0007\u001b[2J"
`
	if err := os.WriteFile(config, []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"keys", "list"}, {"keys", "show", "ops"}, {"activity", "list"}} {
		var out, errOut strings.Builder
		env := map[string]string{"XDG_CONFIG_HOME": home, "HOME": home, "VIGIL_CONFIG": config}
		c := proc{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut, getenv: func(k string) string { return env[k] }}
		code := run(context.Background(), c, args)
		all := out.String() + errOut.String()
		if strings.ContainsAny(all, "\x1b\x07") {
			t.Errorf("%q put keys_dir's control characters on the terminal:\n%q", args, all)
		}
		if code == 0 || !strings.Contains(all, "keys_dir") {
			t.Errorf("%q: exit %d, want the config refused naming keys_dir:\n%q", args, code, all)
		}
	}
}
