package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// 'vigil keys generate NAME' for the key the active profile already names
// does not end by telling the user to set key = NAME, which is set; another
// name still gets that step.
func TestKeysGenerateForTheProfilesKeyDoesNotAskToSetIt(t *testing.T) {
	home, cfgDir := t.TempDir(), t.TempDir()
	config := filepath.Join(cfgDir, "config.toml")
	const toml = `[profiles.staging]
base_url = "http://127.0.0.1:8420"
organization_id = "o"
key = "staging-admin"
keys_dir = "keys"
`
	if err := os.WriteFile(config, []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"XDG_CONFIG_HOME": filepath.Join(home, ".config"), "HOME": home, "VIGIL_CONFIG": config, "VIGIL_PROFILE": "staging"}
	runIt := func(args ...string) (int, string) {
		var out, errOut strings.Builder
		c := proc{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut, getenv: func(k string) string { return env[k] }}
		code := run(context.Background(), c, args)
		return code, out.String() + errOut.String()
	}
	code, all := runIt("keys", "generate", "staging-admin")
	if code != 0 || strings.Contains(all, "then set key") || !strings.Contains(all, "register the public key") {
		t.Errorf("keys generate of the profile's own key: exit %d\n%s\nwant the step to register it, not to set key = it", code, all)
	}
	code, all = runIt("keys", "generate", "other")
	if code != 0 || !strings.Contains(all, `then set key = "other" in your profile`) {
		t.Errorf("keys generate of another name: exit %d\n%s\nwant the step to set key", code, all)
	}
	// The profile's key name, but in another directory than its keys_dir.
	code, all = runIt("keys", "generate", "--dir", t.TempDir(), "staging-admin")
	if code != 0 || !strings.Contains(all, `then set key = "staging-admin" and keys_dir = `) {
		t.Errorf("keys generate --dir elsewhere: exit %d\n%s\nwant the step to set key and keys_dir (the profile reads another directory)", code, all)
	}
}

// 'vigil keys generate --dir DIR NAME' with DIR outside the profile's keys
// directory says to set keys_dir as well as key, DIR made absolute (--dir
// is relative to the working directory, keys_dir to the config file), and
// a profile set as it says stamps with the new key.
func TestKeysGenerateElsewhereAdviceWorksAsGiven(t *testing.T) {
	home, cfgDir, work := t.TempDir(), t.TempDir(), t.TempDir()
	config := filepath.Join(cfgDir, "config.toml")
	const profileHead = `[profiles.staging]
base_url = "http://127.0.0.1:8420"
organization_id = "o"
`
	if err := os.WriteFile(config, []byte(profileHead+"keys_dir = \"keys\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"XDG_CONFIG_HOME": filepath.Join(home, ".config"), "HOME": home, "VIGIL_CONFIG": config, "VIGIL_PROFILE": "staging"}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(work); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runVigil(t, env, "", "keys", "generate", "--dir", "other", "n1")
	if err := os.Chdir(wd); err != nil {
		t.Fatal(err)
	}
	wantExit(t, "keys generate --dir other n1", code, 0, out, errOut)
	_, advice, ok := strings.Cut(out, "then set ")
	setting, _, _ := strings.Cut(advice, " in your profile")
	key, dir, both := strings.Cut(setting, " and ")
	if !ok || !both || key != `key = "n1"` || !strings.HasPrefix(dir, "keys_dir = ") {
		t.Fatalf("keys generate --dir other n1 advises %q; want key = \"n1\" and keys_dir = the directory", setting)
	}
	if err := os.WriteFile(config, []byte(profileHead+key+"\n"+dir+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = runVigil(t, env, "", "stamp", "--profile", "staging", "--key", "n1", "--body", "{}")
	wantExit(t, "stamp with the profile set as advised", code, 0, out, errOut)
	if strings.TrimSpace(out) == "" {
		t.Fatal("stamp printed no stamp")
	}
}
