package cli

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
)

func writeConfig(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func envOf(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestExampleConfigLoadsAndDocumentsEveryKey(t *testing.T) {
	text, err := os.ReadFile("../config.example.toml")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := loadConfig("../config.example.toml")
	if err != nil {
		t.Fatalf("config.example.toml does not load: %v", err)
	}
	typ := reflect.TypeFor[Profile]()
	for i := range typ.NumField() {
		tag := typ.Field(i).Tag.Get("toml")
		if tag == "-" {
			continue
		}
		if !strings.Contains(string(text), "\n"+tag+" = ") && !strings.Contains(string(text), "."+tag+".") {
			t.Errorf("config.example.toml does not show the profile key %s", tag)
		}
	}
	st := cfg.Profiles["staging"]
	absDir, _ := filepath.Abs("..") // the example config's own directory
	if st.Name != "staging" || st.Refresh.Duration != 30*time.Second || st.Color != "6" {
		t.Errorf("staging = name %q refresh %v color %q", st.Name, st.Refresh.Duration, st.Color)
	}
	if got, want := st.KeysDir, filepath.Join(absDir, "keys"); got != want && got != filepath.Join("..", "keys") {
		t.Errorf("keys_dir = %q, want %q", got, want)
	}
	if !cfg.Profiles["production"].ReadOnly || cfg.Profiles["production"].Color != "1" {
		t.Errorf("production = %+v", cfg.Profiles["production"])
	}
}

func TestConfigRelativePathsFollowTheFile(t *testing.T) {
	path := writeConfig(t, "[profiles.p]\nbase_url = \"http://127.0.0.1:8080\"\norganization_id = \"o\"\nkeys_dir = \"k\"\ntrusted_roots = [\"r/root.pem\", \"/abs/root.pem\"]\n")
	cfg, err := loadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Dir(path)
	p := cfg.Profiles["p"]
	if p.KeysDir != filepath.Join(dir, "k") || p.TrustedRoots[0] != filepath.Join(dir, "r", "root.pem") || p.TrustedRoots[1] != "/abs/root.pem" {
		t.Errorf("paths not resolved against %s: %q %q", dir, p.KeysDir, p.TrustedRoots)
	}
}

// TestConfigErrorsNameFileLineAndKey: each bad file gives an error that names
// the file, the line (counted by hand in the text) and the key.
func TestConfigErrorsNameFileLineAndKey(t *testing.T) {
	const head = "default_profile = \"p\"\n[profiles.p]\nbase_url = \"https://a.example\"\n" // lines 1-3
	pcr := strings.Repeat("ab", 48)
	cases := []struct {
		name, text, line, key, hint string
	}{
		{"unknown key", head + "organisation_id = \"o\"\n", ":4:", "profiles.p.organisation_id", "unknown key"},
		{"unknown top-level key", "defualt_profile = \"p\"\n[profiles.p]\nbase_url = \"https://a.example\"\n", ":1:", "defualt_profile", "unknown key"},
		{"unknown key in a later table", head + "[profiles.q]\nbase_url = \"https://b.example\"\n\n  colour = \"red\"\n", ":7:", "profiles.q.colour", "unknown key"},
		{"bad URL", head + "auth_proxy_url = \"ftp://x\"\n", ":4:", "profiles.p.auth_proxy_url", "http:// or https://"},
		{"URL without scheme", "[profiles.p]\nbase_url = \"api.example.com\"\n", ":2:", "profiles.p.base_url", "http:// or https://"},
		{"bad duration", head + "refresh = \"5 minutes\"\n", ":4:", "profiles.p.refresh", "duration"},
		{"negative refresh", head + "refresh = \"-5s\"\n", ":4:", "profiles.p.refresh", "negative"},
		{"wrong type", head + "read_only = \"yes\"\n", ":4:", "profiles.p.read_only", "incompatible"},
		{"PCR index out of range", head + "[profiles.p.expected_pcrs.signer]\n32 = \"" + pcr + "\"\n", ":5:", "profiles.p.expected_pcrs.signer.32", "0 to 31"},
		{"PCR index not a number", head + "[profiles.p.expected_pcrs.signer]\npcr0 = \"" + pcr + "\"\n", ":5:", "profiles.p.expected_pcrs.signer.pcr0", "0 to 31"},
		{"non-hex PCR", head + "expected_pcrs = { signer = { 3 = \"zz\" } }\n", ":4:", "profiles.p.expected_pcrs.signer.3", "hex"},
		{"non-hex manifest hash", head + "allowed_manifest_hashes = [\"xyz\"]\n", ":4:", "profiles.p.allowed_manifest_hashes", "64 hex"},
		{"bad colour", head + "color = \"reddish\"\n", ":4:", "profiles.p.color", "not a colour"},
		{"bad TLS fetcher key", head + "tls_fetcher_public_key = \"04abcd\"\n", ":4:", "profiles.p.tls_fetcher_public_key", "130 hex"},
		{"bad key name", head + "key = \"../etc/passwd\"\n", ":4:", "profiles.p.key", "key name"},
		{"unknown default profile", "default_profile = \"x\"\n[profiles.p]\nbase_url = \"https://a.example\"\n", ":1:", "default_profile", "available: p"},
		{"syntax error", head + "refresh = \n", ":4:", "profiles.p.refresh", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := writeConfig(t, c.text)
			_, err := loadConfig(path)
			if err == nil {
				t.Fatal("loaded without error")
			}
			msg := err.Error()
			for _, want := range []string{path, c.line, c.key, c.hint} {
				if !strings.Contains(msg, want) {
					t.Errorf("error %q does not contain %q", msg, want)
				}
			}
		})
	}
}

func TestConfigMissingFile(t *testing.T) {
	_, err := loadConfig(filepath.Join(t.TempDir(), "nope.toml"))
	if !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing file: %v, want fs.ErrNotExist", err)
	}
	c := proc{getenv: envOf(map[string]string{"HOME": t.TempDir()})}
	_, err = loadProfile(c, "", "")
	if err == nil || !strings.Contains(err.Error(), "vigil demo") || !strings.Contains(err.Error(), "--config") {
		t.Fatalf("missing default config: %v", err)
	}
}

func TestLoadProfileSelection(t *testing.T) {
	const profiles = "[profiles.a]\nbase_url = \"https://a.example\"\norganization_id = \"oa\"\n" +
		"[profiles.b]\nbase_url = \"https://b.example\"\norganization_id = \"ob\"\n"
	two := writeConfig(t, profiles)
	withDefault := writeConfig(t, "default_profile = \"b\"\n"+profiles)
	one := writeConfig(t, "[profiles.only]\nbase_url = \"https://o.example\"\norganization_id = \"oo\"\n")

	cases := []struct {
		name, path, arg, env, want, errHas string
	}{
		{"argument wins", withDefault, "a", "b", "a", ""},
		{"environment next", withDefault, "", "a", "a", ""},
		{"default_profile next", withDefault, "", "", "b", ""},
		{"the only profile", one, "", "", "only", ""},
		{"ambiguous", two, "", "", "", "a, b"},
		{"unknown from argument", two, "c", "", "", "available: a, b"},
		{"unknown from environment", two, "", "zz", "", "VIGIL_PROFILE"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := loadProfile(proc{getenv: envOf(map[string]string{"VIGIL_PROFILE": c.env})}, c.path, c.arg)
			if c.errHas != "" {
				if err == nil || !strings.Contains(err.Error(), c.errHas) {
					t.Fatalf("error %v, want one containing %q", err, c.errHas)
				}
				return
			}
			if err != nil || p.Name != c.want {
				t.Fatalf("got %q (%v), want %q", p.Name, err, c.want)
			}
		})
	}

	incomplete := writeConfig(t, "[profiles.x]\nbase_url = \"https://a.example\"\n")
	if _, err := loadProfile(proc{getenv: envOf(nil)}, incomplete, ""); err == nil || !strings.Contains(err.Error(), "organization_id") {
		t.Errorf("profile without organization_id: %v", err)
	}
}

func TestProfileStamperLoadsTheProfileKey(t *testing.T) {
	dir := t.TempDir()
	k, err := keys.Store{Dir: filepath.Join(dir, "mykeys")}.Generate("ops", "ed25519")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "config.toml")
	os.WriteFile(path, []byte("[profiles.p]\nbase_url = \"https://a.example\"\norganization_id = \"o\"\nkey = \"ops\"\nkeys_dir = \"mykeys\"\n"), 0o600)
	p, err := loadProfile(proc{getenv: envOf(nil)}, path, "")
	if err != nil {
		t.Fatal(err)
	}
	s, err := profileStamper(p, envOf(nil))
	if err != nil {
		t.Fatal(err)
	}
	body := []byte(`{"organizationId":"o"}`)
	_, v, err := s.Stamp(body)
	if err != nil {
		t.Fatal(err)
	}
	st, err := keys.Verify(v, body)
	if err != nil || st.PublicKey != k.PublicKeyHex() {
		t.Fatalf("stamp from profile key: %v, key %s want %s", err, st.PublicKey, k.PublicKeyHex())
	}

	// Default directory from XDG_CONFIG_HOME.
	xdg := t.TempDir()
	if _, err := (keys.Store{Dir: filepath.Join(xdg, "vigil", "keys")}).Generate("def", ""); err != nil {
		t.Fatal(err)
	}
	if _, err := profileStamper(Profile{Name: "d", Key: "def"}, envOf(map[string]string{"XDG_CONFIG_HOME": xdg})); err != nil {
		t.Errorf("key in the default directory: %v", err)
	}
	if _, err := profileStamper(Profile{Name: "n"}, envOf(nil)); err == nil || !strings.Contains(err.Error(), "vigil keys generate") {
		t.Errorf("profile without key: %v", err)
	}
}

func TestConfigMouseAndKeys(t *testing.T) {
	base := "[profiles.p]\nbase_url = \"http://127.0.0.1:8080\"\norganization_id = \"o\"\n"
	cfg, err := loadConfig(writeConfig(t, base))
	if err != nil {
		t.Fatal(err)
	}
	if !cfg.Profiles["p"].MouseOn() {
		t.Error("mouse is off without a mouse key; want on by default")
	}
	cfg, err = loadConfig(writeConfig(t, base+"mouse = false\n[profiles.p.keys]\n\"activities.approve\" = [\"A\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	p := cfg.Profiles["p"]
	if p.MouseOn() {
		t.Error("mouse = false left the mouse on")
	}
	if got := p.Keys["activities.approve"]; !reflect.DeepEqual(got, []string{"A"}) {
		t.Errorf("keys = %v", p.Keys)
	}

	for _, tc := range []struct{ text, want []string }{
		{[]string{"mouse = \"no\""}, []string{"mouse"}},
		{[]string{"[profiles.p.keys]", "aprove = [\"A\"]"}, []string{":5:", "profiles.p.keys.aprove", "unknown key action \"aprove\"", "activities.approve", "palette"}},
		{[]string{"[profiles.p.keys]", "quit = []"}, []string{"profiles.p.keys", "empty"}},
		{[]string{"[profiles.p.keys]", "\"activities.approve\" = [\"x\"]"}, []string{"\"x\"", "activities.approve", "activities.reject"}},
		{[]string{"[profiles.p.keys]", "\"activities.approve\" = [\"q\"]"}, []string{"\"q\"", "quit"}},
		{[]string{"[profiles.p.keys]", "\"activities.approve\" = [\"1\"]"}, []string{`key action "activities.approve": "1" goes to screen 1 and cannot be bound to an action; remove it from activities.approve`}},
		{[]string{"[profiles.p.keys]", "\"activities.reject\" = [\"ctrl+c\"]"}, []string{`key action "activities.reject": "ctrl+c" always quits and cannot be bound to an action; remove it from activities.reject`}},
		{[]string{"[profiles.p.keys]", "quit = [\"ctrl+c\"]"}, []string{`key action "quit": "ctrl+c" always quits and cannot be bound to an action; remove it from quit`}},
		{[]string{"[profiles.p.keys]", "palette = [\"5\"]"}, []string{`"5" goes to screen 5 and cannot be bound to an action; remove it from palette`}},
	} {
		_, err := loadConfig(writeConfig(t, base+strings.Join(tc.text, "\n")+"\n"))
		if err == nil {
			t.Errorf("%q loaded", tc.text)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%q: error %q does not say %q", tc.text, err, w)
			}
		}
	}
}

// Saved filters: short or full names, normalised; an unknown one is an error
// naming the file's key and the valid values.
func TestConfigSavedFilters(t *testing.T) {
	base := "[profiles.p]\nbase_url = \"http://127.0.0.1:8080\"\norganization_id = \"o\"\n"
	cfg, err := loadConfig(writeConfig(t, base+"[profiles.p.filters.done]\nstatuses = [\"completed\", \"ACTIVITY_STATUS_REJECTED\"]\ntypes = [\"CREATE_POLICY_V3\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := savedFilters(cfg.Profiles["p"])
	if err != nil || len(got) != 1 || got[0].Name != "done" ||
		!reflect.DeepEqual(got[0].Statuses, []string{"ACTIVITY_STATUS_COMPLETED", "ACTIVITY_STATUS_REJECTED"}) ||
		!reflect.DeepEqual(got[0].Types, []string{"ACTIVITY_TYPE_CREATE_POLICY_V3"}) {
		t.Errorf("saved filters = %+v, %v", got, err)
	}
	// A type vigil does not know is taken when well-formed, as --type takes it.
	cfg, err = loadConfig(writeConfig(t, base+"[profiles.p.filters.v3]\ntypes = [\"create_users_v3\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	want, _, _ := api.ParseActivityType("create_users_v3")
	if got, err := savedFilters(cfg.Profiles["p"]); err != nil || len(got) != 1 || !reflect.DeepEqual(got[0].Types, []string{want}) {
		t.Errorf("saved filter of a well-formed type = %+v, %v", got, err)
	}
	if _, err = loadConfig(writeConfig(t, base+"[profiles.p.filters.x]\ntypes = [\"create users!\"]\n")); err == nil || !strings.Contains(err.Error(), "not an activity type") {
		t.Errorf("malformed type: %v", err)
	}
	_, err = loadConfig(writeConfig(t, base+"[profiles.p.filters.x]\nstatuses = [\"DONE\"]\n"))
	if err == nil || !strings.Contains(err.Error(), "filters") || !strings.Contains(err.Error(), `unknown status "DONE"`) || !strings.Contains(err.Error(), "COMPLETED") {
		t.Errorf("unknown status: %v", err)
	}
}
