package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/keys"
)

// The keys verbs work "in the directory the active profile reads its key
// from" (docs/keys.md). A default config whose only profile sets keys_dir,
// but which cannot be loaded right now (here: organization_id not yet filled
// in; equally a typo, a group-writable file), is an error saying what is
// wrong and that --dir DIR works meanwhile: a key silently written into the
// default directory would not be found by the profile once it is fixed. A
// default config of several profiles, none chosen, still means the default
// directory, as no config at all does.
func TestKeysVerbsRefuseABrokenDefaultConfig(t *testing.T) {
	xdg := t.TempDir()
	cfgDir := filepath.Join(xdg, "vigil")
	if err := os.MkdirAll(cfgDir, 0o700); err != nil {
		t.Fatal(err)
	}
	config := filepath.Join(cfgDir, "config.toml")
	const broken = "[profiles.prod]\nbase_url = \"https://api.example.com\"\nkey = \"ops\"\nkeys_dir = \"team-keys\"\n"
	if err := os.WriteFile(config, []byte(broken), 0o600); err != nil {
		t.Fatal(err)
	}
	defaultStore := keys.Store{Dir: filepath.Join(cfgDir, "keys")}
	for _, args := range [][]string{{"keys", "generate", "ops"}, {"keys", "import", "--scheme", "p256", "ops"}, {"keys", "list"}} {
		k, _ := keys.Generate(keys.SchemeP256)
		code, _, errOut := runCLI(t, xdg, k.PrivateKeyHex()+"\n", args...)
		if code == 0 || !strings.Contains(errOut, "organization_id") || !strings.Contains(errOut, "or give --dir DIR") {
			t.Errorf("%s with a default config that cannot be loaded: exit %d, %q; want it refused, saying why and that --dir DIR works", strings.Join(args, " "), code, errOut)
		}
		if _, err := defaultStore.Info("ops"); err == nil {
			t.Fatalf("%s put the key into the default directory %s, where the profile will not look for it", strings.Join(args, " "), defaultStore.Dir)
		}
	}

	// Fixed, the key goes to the profile's keys_dir.
	if err := os.WriteFile(config, []byte(broken+"organization_id = \"o\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runCLI(t, xdg, "", "keys", "generate", "ops"); code != 0 {
		t.Fatalf("keys generate with the config fixed: exit %d, %s", code, errOut)
	}
	if _, err := (keys.Store{Dir: filepath.Join(cfgDir, "team-keys")}).Load("ops"); err != nil {
		t.Errorf("the key is not in the profile's keys_dir: %v", err)
	}

	// Two profiles and no default_profile: the config names no single
	// profile, so the default directory.
	two := broken + "organization_id = \"o\"\n[profiles.dev]\nbase_url = \"https://dev.example.com\"\norganization_id = \"o\"\n"
	if err := os.WriteFile(config, []byte(two), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runCLI(t, xdg, "", "keys", "generate", "dev"); code != 0 {
		t.Fatalf("keys generate with two profiles, none chosen: exit %d, %s", code, errOut)
	}
	if _, err := defaultStore.Load("dev"); err != nil {
		t.Errorf("with no single profile the key is not in the default directory: %v", err)
	}
}
