package profile

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzLoad feeds arbitrary config text to Load: it must return a config or an
// error, never panic, and give the same answer every time (a map's order must
// not pick which mistake is reported).
func FuzzLoad(f *testing.F) {
	example, err := os.ReadFile(filepath.Join("..", "config.example.toml"))
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{
		string(example),
		"[profiles.p]\nbase_url = \"https://a.example\"\norganization_id = \"o\"\n",
		"[profiles.p]\nbase_url = \"https://a.example\"\norganization_id = \"o\"\nrefresh = 5\n[profiles.q]\nrefresh = 5\n",
		"[profiles.\"a.b\".keys]\n\"x\" = [\"y\"]\n",
		"[profiles.p.expected_pcrs.app]\n\"03\" = \"00\"\n",
		"[profiles.p.expected_manifest_sets.app]\nthreshold = 9\nmembers = [\"\"]\n",
		"default_profile = \"nope\"\n[profiles.p]\n",
		"[Profiles.P]\nBase_URL = 1\n",
		"[[profiles]]\n",
		"profiles = {p = {refresh = \"-1s\"}}\n",
		"[profiles.p]\ncolor = \"#zzzzzz\"\nkeys_dir = \"\\u001b[31m\"\n",
	} {
		f.Add(s)
	}
	checks := Checks{KeyActions: []string{"list.up", "list.down"}}
	f.Fuzz(func(t *testing.T, text string) {
		path := filepath.Join(t.TempDir(), "config.toml")
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		cfg, err := Load(path, checks)
		again, err2 := Load(path, checks)
		if (err == nil) != (err2 == nil) || err != nil && err.Error() != err2.Error() {
			t.Fatalf("two loads of %q disagree: %v / %v", text, err, err2)
		}
		if err != nil {
			return
		}
		if len(cfg.Profiles) == 0 || len(again.Profiles) != len(cfg.Profiles) {
			t.Fatalf("loaded %q with %d profiles", text, len(cfg.Profiles))
		}
		for name, p := range cfg.Profiles {
			if p.Name != name {
				t.Fatalf("profile %q named %q", name, p.Name)
			}
		}
	})
}
