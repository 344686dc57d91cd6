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

// "~/" in keys_dir and trusted_roots "means your home directory"
// (config.example.toml). With HOME unset (cron, a systemd unit, env -i: the
// cases docs/keys.md says get no default keys directory rather than one
// under the working directory) or relative, it is refused at load, naming
// the key and what to do: never a directory literally named "~" beside the
// config (where keys would be written, and a later 'rm -rf ~' cleaning it up
// would delete the home directory), nor one under the working directory.
func TestTildePathsNeedAnAbsoluteHome(t *testing.T) {
	for key, line := range map[string]string{
		"keys_dir":      `keys_dir = "~/vigil-keys"`,
		"trusted_roots": `trusted_roots = ["~/root.pem"]`,
	} {
		path := filepath.Join(t.TempDir(), "config.toml")
		text := "[profiles.prod]\nbase_url = \"https://api.example.com\"\norganization_id = \"o\"\nkey = \"ops\"\n" + line + "\n"
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		for _, home := range []string{"", "relative-home"} {
			t.Setenv("HOME", home)
			cfg, err := Load(path, Checks{})
			if err == nil {
				p := cfg.Profiles["prod"]
				t.Errorf("HOME=%q: %s loaded as keys_dir %q, trusted_roots %q; want an error saying \"~/\" needs an absolute HOME", home, key, p.KeysDir, p.TrustedRoots)
				continue
			}
			if msg := err.Error(); !strings.Contains(msg, path+":5") || !strings.Contains(msg, key) || !strings.Contains(msg, `"~/" needs HOME set to an absolute path`) {
				t.Errorf("HOME=%q: %s: %v; want the file, line and key, and what to do", home, key, err)
			}
		}
		home := t.TempDir()
		t.Setenv("HOME", home)
		cfg, err := Load(path, Checks{})
		if err != nil {
			t.Fatalf("HOME=%s: %v", home, err)
		}
		p := cfg.Profiles["prod"]
		if got := append([]string{p.KeysDir}, p.TrustedRoots...); !strings.HasPrefix(got[len(got)-1], home+string(filepath.Separator)) {
			t.Errorf("HOME=%s: %s resolved to %q; want it under HOME", home, key, got)
		}
	}
}
