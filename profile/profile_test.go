package profile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func envOf(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestDefaultConfigPath(t *testing.T) {
	if got, err := DefaultPath(envOf(map[string]string{"HOME": "/h"})); got != "/h/.config/vigil/config.toml" || err != nil {
		t.Errorf("without XDG: %s, %v", got, err)
	}
	if got, err := DefaultPath(envOf(map[string]string{"HOME": "/h", "XDG_CONFIG_HOME": "/x"})); got != "/x/vigil/config.toml" || err != nil {
		t.Errorf("with XDG: %s, %v", got, err)
	}
	// Not a config file in whatever directory vigil was started in.
	if got, err := DefaultPath(envOf(nil)); err == nil || !strings.Contains(err.Error(), "--config") {
		t.Errorf("without HOME: %q, %v; want an error saying to set HOME or give --config", got, err)
	}
}

func TestColorValue(t *testing.T) {
	for in, want := range map[string]string{"red": "1", "Bright-Red": "9", "#ABC": "#aabbcc", "#112233": "#112233", "208": "208"} {
		got, err := colorValue(in)
		if err != nil || got != want {
			t.Errorf("colorValue(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", "#12", "#ggg", "256", "-1", "rouge", "#1234567"} {
		if _, err := colorValue(in); err == nil {
			t.Errorf("colorValue(%q) accepted", in)
		}
	}
}

// Select reads $VIGIL_CONFIG when no path is given, and a missing file is a
// *MissingError naming it, whichever way it was chosen.
func TestSelectConfigPathAndMissingFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "c.toml")
	if err := os.WriteFile(path, []byte("[profiles.p]\nbase_url = \"https://a.example\"\norganization_id = \"o\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	p, err := Select(envOf(map[string]string{"VIGIL_CONFIG": path}), "", "", Checks{})
	if err != nil || p.Name != "p" || p.OrganizationID != "o" {
		t.Fatalf("from VIGIL_CONFIG: %+v, %v", p, err)
	}
	missing := filepath.Join(dir, "nope.toml")
	for name, env := range map[string]map[string]string{
		"given":   nil,
		"default": {"XDG_CONFIG_HOME": dir},
	} {
		arg := missing
		if name == "default" {
			arg, missing = "", filepath.Join(dir, "vigil", "config.toml")
		}
		_, err := Select(envOf(env), arg, "", Checks{})
		var me *MissingError
		if !errors.As(err, &me) || me.Path != missing || !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), missing) {
			t.Errorf("%s path: %v", name, err)
		}
	}
}

// Injected checks run on what they own: an unknown key action is named with
// the valid ones, and a filter the console would refuse is an error at its key.
func TestChecksAreInjected(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.toml")
	text := "[profiles.p]\nbase_url = \"https://a.example\"\norganization_id = \"o\"\n" +
		"[profiles.p.keys]\nbogus = [\"x\"]\n"
	os.WriteFile(path, []byte(text), 0o600)
	_, err := Load(path, Checks{KeyActions: []string{"a.one", "a.two"}})
	if err == nil || !strings.Contains(err.Error(), `unknown key action "bogus"`) || !strings.Contains(err.Error(), "a.one, a.two") || !strings.Contains(err.Error(), ":5:") {
		t.Errorf("unknown action: %v", err)
	}
	text = "[profiles.p]\nbase_url = \"https://a.example\"\norganization_id = \"o\"\n[profiles.p.filters.done]\nstatuses = [\"x\"]\n"
	os.WriteFile(path, []byte(text), 0o600)
	_, err = Load(path, Checks{Filter: func(name string, f Filter) error {
		if name == "done" && f.Statuses[0] == "x" {
			return errors.New("x is no status")
		}
		return nil
	}})
	if err == nil || !strings.Contains(err.Error(), "profiles.p.filters.done") || !strings.Contains(err.Error(), "x is no status") {
		t.Errorf("filter: %v", err)
	}
}

// With the same mistake in several profiles, the error names the first in the
// file, every time (a map's order would name a random one).
func TestTypeErrorNamesTheFirstProfileInTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.toml")
	var text string
	for _, name := range []string{"zulu", "alpha", "mike"} {
		text += "[profiles." + name + "]\nbase_url = \"https://a.example\"\norganization_id = \"o\"\nrefresh = 5\n"
	}
	os.WriteFile(path, []byte(text), 0o600)
	for range 20 {
		_, err := Load(path, Checks{})
		if err == nil || !strings.Contains(err.Error(), ":4:") || !strings.Contains(err.Error(), "profiles.zulu.refresh") {
			t.Fatalf("error %v, want the first profile's refresh at line 4", err)
		}
	}
	os.WriteFile(path, []byte(strings.ReplaceAll(text, "refresh = 5", `refresh = "5s"`)), 0o600)
	cfg, err := Load(path, Checks{})
	if err != nil || len(cfg.Profiles) != 3 || cfg.Profiles["mike"].Name != "mike" {
		t.Fatalf("a good config: %v %+v", err, cfg)
	}
}

// max_list_reply_mib is a size in MiB within what vigil can use; anything
// else is refused naming the key and the sizes it takes.
func TestMaxListReplyMiB(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "c.toml")
	load := func(value string) (Profile, error) {
		body := "[profiles.p]\nbase_url = \"https://a.example\"\norganization_id = \"o\"\nmax_list_reply_mib = " + value + "\n"
		if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return Select(envOf(nil), path, "", Checks{})
	}
	p, err := load("1024")
	if err != nil || p.MaxListReplyMiB == nil || *p.MaxListReplyMiB != 1024 {
		t.Fatalf("max_list_reply_mib = 1024: %+v, %v", p.MaxListReplyMiB, err)
	}
	if s := p.ListReplySetting(); !strings.Contains(s, "max_list_reply_mib") || !strings.Contains(s, path) {
		t.Errorf("ListReplySetting() = %q; want the key and %s", s, path)
	}
	for _, bad := range []string{"0", "3", "-1", "1000000", `"256"`} {
		if _, err := load(bad); err == nil || !strings.Contains(err.Error(), "max_list_reply_mib") {
			t.Errorf("max_list_reply_mib = %s: %v; want an error naming max_list_reply_mib", bad, err)
		}
	}
}

// The same enclave app listed twice would show as two rows of one boot proof;
// loading says which app and where, so the config can be fixed.
func TestEnclaveAppListedTwiceIsRefusedByName(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.toml")
	text := "[profiles.p]\nbase_url = \"https://a.example\"\norganization_id = \"o\"\nenclave_apps = [\"signer\", \"policy-engine\", \"signer\"]\n"
	os.WriteFile(path, []byte(text), 0o600)
	_, err := Load(path, Checks{})
	if err == nil || !strings.Contains(err.Error(), "enclave_apps") || !strings.Contains(err.Error(), `"signer" is listed twice`) {
		t.Fatalf("error %v, want enclave_apps naming \"signer\" as listed twice", err)
	}
	os.WriteFile(path, []byte(strings.Replace(text, `, "signer"]`, `]`, 1)), 0o600)
	if _, err := Load(path, Checks{}); err != nil {
		t.Fatalf("each app once: %v", err)
	}
}
