package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// profileRunner runs vigil as the README's scripting set-up does: HOME at
// home, VIGIL_CONFIG at config and VIGIL_PROFILE alice; it returns the exit
// status and everything printed.
func profileRunner(home, config string) func(args ...string) (int, string) {
	env := map[string]string{"XDG_CONFIG_HOME": filepath.Join(home, ".config"), "HOME": home, "VIGIL_CONFIG": config, "VIGIL_PROFILE": "alice"}
	return func(args ...string) (int, string) {
		var out, errOut strings.Builder
		c := proc{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut, getenv: func(k string) string { return env[k] }}
		code := run(context.Background(), c, args)
		return code, out.String() + errOut.String()
	}
}

// README's scripting set-up exports VIGIL_CONFIG/VIGIL_PROFILE; in that shell
// 'vigil keys generate ops' stores the key in the profile's keys_dir, and the
// next documented step, 'vigil stamp --key ops', cannot find it: it looks in
// $XDG_CONFIG_HOME/vigil/keys only, and its message sends the user to
// "a profile's key and keys_dir" and to 'vigil keys generate ops' (refused now:
// the name is taken).
func TestStampFindsTheKeyKeysGenerateJustMade(t *testing.T) {
	home, cfgDir := t.TempDir(), t.TempDir()
	config := filepath.Join(cfgDir, "config.toml")
	const toml = `[profiles.alice]
base_url = "http://127.0.0.1:8420"
organization_id = "o"
key = "alice"
keys_dir = "keys"
`
	if err := os.WriteFile(config, []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	runIt := profileRunner(home, config)
	if code, all := runIt("keys", "generate", "ops"); code != 0 {
		t.Fatalf("keys generate: exit %d\n%s", code, all)
	}
	code, all := runIt("stamp", "--key", "ops", "--body", "{}")
	if code != 0 {
		t.Errorf("stamp --key ops right after 'keys generate ops' in the same environment: exit %d\n%s", code, all)
	}
	if code2, all2 := runIt("keys", "generate", "ops"); code != 0 && strings.Contains(all, "vigil keys generate ops") && code2 != 0 {
		t.Errorf("stamp's advice ('vigil keys generate ops') is refused:\n%s", all2)
	}
}

// A key that is not where stamp or a profile looks, but is stored under that
// name in the other directory a user could mean: the error says where it is,
// not 'vigil keys generate NAME', which that directory would refuse.
func TestKeyNotFoundNamesTheDirectoryHoldingIt(t *testing.T) {
	home, cfgDir, elsewhere := t.TempDir(), t.TempDir(), t.TempDir()
	config := filepath.Join(cfgDir, "config.toml")
	const toml = `[profiles.alice]
base_url = "http://127.0.0.1:8420"
organization_id = "o"
key = "ops"
keys_dir = "keys"
`
	if err := os.WriteFile(config, []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	runIt := profileRunner(home, config)
	if code, all := runIt("keys", "generate", "ops"); code != 0 {
		t.Fatalf("keys generate: exit %d\n%s", code, all)
	}
	profileKeys := filepath.Join(cfgDir, "keys")

	// stamp --dir pointing elsewhere: the key is in the profile's keys_dir.
	code, all := runIt("stamp", "--dir", elsewhere, "--key", "ops", "--body", "{}")
	if code == 0 || strings.Contains(all, "keys generate") || !strings.Contains(all, profileKeys) {
		t.Errorf("stamp --dir %s --key ops, with ops in %s: exit %d\n%s\nwant a failure naming %s, not advice to generate the key", elsewhere, profileKeys, code, all, profileKeys)
	}

	// A profile whose keys_dir lacks the key the default directory holds.
	if code, all := runIt("keys", "generate", "--dir", filepath.Join(home, ".config", "vigil", "keys"), "def"); code != 0 {
		t.Fatalf("keys generate --dir: exit %d\n%s", code, all)
	}
	if err := os.WriteFile(config, []byte(strings.Replace(toml, `key = "ops"`, `key = "def"`, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	code, all = runIt("activity", "list")
	if code == 0 || strings.Contains(all, "keys generate") || !strings.Contains(all, filepath.Join(home, ".config", "vigil", "keys")) {
		t.Errorf("a profile key found only in the default keys dir: exit %d\n%s\nwant the error to name that directory, not advise generating the key", code, all)
	}
}
