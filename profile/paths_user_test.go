package profile

import (
	"os"
	"os/user"
	"path/filepath"
	"strings"
	"testing"
)

// "~user/" in keys_dir and trusted_roots is that user's home directory, as
// a shell reads it, never a directory named "~user" beside the config; an
// unknown user is refused at load, naming the key and what to do.
func TestTildeUserPathsAreThatUsersHome(t *testing.T) {
	me, err := user.Current()
	if err != nil || me.Username == "" || !filepath.IsAbs(me.HomeDir) {
		t.Skipf("the current user has no name or absolute home directory: %v %+v", err, me)
	}
	const unknown = "vigil-no-such-user-x9"
	if _, err := user.Lookup(unknown); err == nil {
		t.Skipf("user %s exists here", unknown)
	}
	load := func(t *testing.T, line string) (Profile, error) {
		path := filepath.Join(t.TempDir(), "config.toml")
		text := "[profiles.prod]\nbase_url = \"https://api.example.com\"\norganization_id = \"o\"\nkey = \"ops\"\n" + line + "\n"
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		cfg, err := Load(path, Checks{})
		if err != nil {
			return Profile{}, err
		}
		return cfg.Profiles["prod"], nil
	}
	p, err := load(t, `keys_dir = "~`+me.Username+`/vigil-keys"`+"\n"+`trusted_roots = ["~`+me.Username+`/root.pem"]`)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(me.HomeDir, "vigil-keys"); p.KeysDir != want {
		t.Errorf("keys_dir = \"~%s/vigil-keys\" resolved to %q, want %q", me.Username, p.KeysDir, want)
	}
	if want := filepath.Join(me.HomeDir, "root.pem"); len(p.TrustedRoots) != 1 || p.TrustedRoots[0] != want {
		t.Errorf("trusted_roots = [\"~%s/root.pem\"] resolved to %q, want %q", me.Username, p.TrustedRoots, want)
	}
	for key, line := range map[string]string{
		"keys_dir":      `keys_dir = "~` + unknown + `/vigil-keys"`,
		"trusted_roots": `trusted_roots = ["~` + unknown + `/root.pem"]`,
	} {
		_, err := load(t, line)
		if err == nil {
			t.Errorf("%s naming unknown user %s loaded", key, unknown)
			continue
		}
		if msg := err.Error(); !strings.Contains(msg, key) || !strings.Contains(msg, unknown) || !strings.Contains(msg, "no such user") || !strings.Contains(msg, "absolute path") {
			t.Errorf("%s: %v; want the key, the user, that there is no such user, and what to do", key, err)
		}
	}
}
