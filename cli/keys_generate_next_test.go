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
	if code != 0 || !strings.Contains(all, `then set key = "staging-admin" in your profile`) {
		t.Errorf("keys generate --dir elsewhere: exit %d\n%s\nwant the step to set key (the profile reads another directory)", code, all)
	}
}
