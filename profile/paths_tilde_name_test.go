package profile

import (
	"os"
	"os/user"
	"path/filepath"
	"strings"
	"testing"
)

// keys_dir and trusted_roots written "~NAME" (no slash) or "~" alone meant,
// before "~user/" was expanded, a file or directory of that name beside the
// config. Read now as a user's home (or HOME), keys would silently go into
// another account's home and the profile's own be "not found": both are
// refused at load, naming the key and the two ways to write what was meant.
func TestTildeNameWithoutSlashIsRefused(t *testing.T) {
	me, err := user.Current()
	if err != nil || me.Username == "" || !filepath.IsAbs(me.HomeDir) {
		t.Skipf("the current user has no name or absolute home directory: %v %+v", err, me)
	}
	t.Setenv("HOME", t.TempDir())
	for _, p := range []string{"~" + me.Username, "~"} {
		for key, line := range map[string]string{
			"keys_dir":      `keys_dir = "` + p + `"`,
			"trusted_roots": `trusted_roots = ["` + p + `"]`,
		} {
			dir := t.TempDir()
			path := filepath.Join(dir, "config.toml")
			text := "[profiles.prod]\nbase_url = \"https://api.example.com\"\norganization_id = \"o\"\nkey = \"ops\"\n" + line + "\n"
			if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
				t.Fatal(err)
			}
			cfg, err := Load(path, Checks{})
			if err == nil {
				pr := cfg.Profiles["prod"]
				t.Errorf("%s = %q loaded as keys_dir %q, trusted_roots %q (it used to be %s); want it refused", key, p, pr.KeysDir, pr.TrustedRoots, filepath.Join(dir, p))
				continue
			}
			msg := err.Error()
			if !strings.Contains(msg, key) || !strings.Contains(msg, p+"/") || !strings.Contains(msg, "./"+p) {
				t.Errorf("%s = %q: %v; want the key, and %q or %q as what to write", key, p, err, p+"/", "./"+p)
			}
		}
	}
	// Written either way, it loads as meant.
	dir := t.TempDir()
	path := filepath.Join(dir, "config.toml")
	text := "[profiles.prod]\nbase_url = \"https://api.example.com\"\norganization_id = \"o\"\nkey = \"ops\"\nkeys_dir = \"./~" + me.Username + "\"\ntrusted_roots = [\"~" + me.Username + "/root.pem\"]\n"
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := Load(path, Checks{})
	if err != nil {
		t.Fatal(err)
	}
	pr := cfg.Profiles["prod"]
	if want := filepath.Join(dir, "~"+me.Username); pr.KeysDir != want {
		t.Errorf("keys_dir = \"./~%s\" is %q, want %q", me.Username, pr.KeysDir, want)
	}
	if want := filepath.Join(me.HomeDir, "root.pem"); len(pr.TrustedRoots) != 1 || pr.TrustedRoots[0] != want {
		t.Errorf("trusted_roots = [\"~%s/root.pem\"] is %q, want %q", me.Username, pr.TrustedRoots, want)
	}
}
