package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// 'vigil keys generate --dir DIR NAME' with DIR the profile's own keys
// directory, given relative or through a symbolic link, is in it: the
// advice is to set key only, not keys_dir "(the key is not in its keys
// directory)" (audit 214, L3).
func TestKeysGenerateInTheProfilesDirGivenRelativeIsInIt(t *testing.T) {
	home, cfgDir := t.TempDir(), t.TempDir()
	config := filepath.Join(cfgDir, "config.toml")
	const toml = `[profiles.staging]
base_url = "http://127.0.0.1:8420"
organization_id = "o"
keys_dir = "keys"
`
	if err := os.WriteFile(config, []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(cfgDir, "keys"), 0o700); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(home, "mykeys")
	if err := os.Symlink(filepath.Join(cfgDir, "keys"), link); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"XDG_CONFIG_HOME": filepath.Join(home, ".config"), "HOME": home, "VIGIL_CONFIG": config, "VIGIL_PROFILE": "staging"}
	t.Chdir(cfgDir)
	for name, dir := range map[string]string{"t1": "keys", "t2": "./keys/", "t3": link} {
		code, out, errOut := runVigil(t, env, "", "keys", "generate", "--dir", dir, name)
		wantExit(t, "keys generate --dir "+dir, code, 0, out, errOut)
		if want := `then set key = "` + name + `" in your profile.`; !strings.Contains(out, want) || strings.Contains(out, "not in its keys directory") {
			t.Errorf("keys generate --dir %s %s (the profile's keys_dir):\n%s\nwant %q", dir, name, out, want)
		}
	}
}
