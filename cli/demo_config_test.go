package cli

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/server"
)

// prepareDemoIn runs prepareDemo on dir as a demo start on baseURL does.
func prepareDemoIn(t *testing.T, dir, baseURL string) (*server.DemoInfo, string, error) {
	t.Helper()
	lock, err := server.LockDataDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Release()
	return prepareDemo(context.Background(), lock, baseURL, "http://127.0.0.1:2", discardLogger())
}

func appendFile(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}

// A demo start rewrites only what the demo set in its members' profiles: a
// profile the user added (the one 'vigil login oauth' says to add), a key
// added to a member's profile and default_profile are kept, and a file with
// comments is copied aside first, never over an older copy.
func TestDemoConfigKeepsWhatTheUserAdded(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config.toml")
	info, note, err := prepareDemoIn(t, dir, "http://127.0.0.1:1")
	if err != nil || note != "" {
		t.Fatalf("first start: %v, note %q", err, note)
	}
	b, _ := os.ReadFile(path)
	if !strings.HasPrefix(string(b), demoConfigHeader) {
		t.Fatalf("the demo's config does not start with its header:\n%s", b)
	}
	appendFile(t, path, `
# my sign-in from 'vigil login oauth'
[profiles.carol-oauth]
base_url = "http://127.0.0.1:1"
organization_id = "`+info.OrganizationID+`"
key = "carol-oauth"
keys_dir = "keys"
`)
	edited := strings.Replace(readString(t, path), "[profiles.alice]\n", "[profiles.alice]\ncolor = \"red\"\n", 1)
	// carol's refresh is the user's own; alice's is removed (the first of the
	// members' tables).
	before, carol, _ := strings.Cut(edited, "[profiles.carol]\n")
	edited = before + "[profiles.carol]\n" + strings.Replace(carol, `refresh = "5s"`, `refresh = "30s"`, 1)
	edited = strings.Replace(edited, "refresh = \"5s\"\n", "", 1)
	edited = strings.Replace(edited, `default_profile = "alice"`, `default_profile = "carol-oauth"`, 1)
	if err := os.WriteFile(path, []byte(edited), 0o600); err != nil {
		t.Fatal(err)
	}

	if _, note, err = prepareDemoIn(t, dir, "http://127.0.0.1:3"); err != nil {
		t.Fatal(err)
	}
	cfg, err := loadConfig(path)
	if err != nil {
		t.Fatalf("the rewritten config: %v", err)
	}
	if p := cfg.Profiles["carol-oauth"]; p.Key != "carol-oauth" || p.BaseURL != "http://127.0.0.1:1" {
		t.Errorf("the user's profile: %+v", p)
	}
	if p := cfg.Profiles["alice"]; p.BaseURL != "http://127.0.0.1:3" || p.Key != "alice" {
		t.Errorf("alice's profile: %+v, want the new base_url", p)
	}
	if text := readString(t, path); !strings.Contains(text, "[profiles.alice]\n") || !strings.Contains(text, `color = "red"`) {
		t.Errorf("alice's colour is gone:\n%s", text)
	}
	// refresh is a preference: the user's own is kept, a profile without
	// one gets the demo's.
	if got := cfg.Profiles["carol"].Refresh.Duration; got != 30*time.Second {
		t.Errorf("carol's refresh = %s, want the user's 30s", got)
	}
	if got := cfg.Profiles["alice"].Refresh.Duration; got != 5*time.Second {
		t.Errorf("alice's refresh = %s, want the demo's 5s", got)
	}
	if cfg.DefaultProfile != "carol-oauth" {
		t.Errorf("default_profile = %q, want the user's carol-oauth", cfg.DefaultProfile)
	}
	bak := path + ".bak"
	if !strings.Contains(note, bak) || readString(t, bak) != edited {
		t.Fatalf("note %q; %s holds:\n%s\nwant the file as the user left it", note, bak, readString(t, bak))
	}

	// The demo's own layout: nothing to copy aside.
	if _, note, err = prepareDemoIn(t, dir, "http://127.0.0.1:4"); err != nil || note != "" {
		t.Fatalf("a start over the demo's own file: %v, note %q", err, note)
	}
	// Another comment: a second copy, the first one kept.
	appendFile(t, path, "# another note\n")
	again := readString(t, path)
	if _, note, err = prepareDemoIn(t, dir, "http://127.0.0.1:5"); err != nil || !strings.Contains(note, bak+".2") {
		t.Fatalf("a start over another comment: %v, note %q", err, note)
	}
	if readString(t, bak) != edited || readString(t, bak+".2") != again {
		t.Error("a copy of the config was overwritten")
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("a temporary file is left: %s", e.Name())
		}
	}
}

func readString(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A config.toml the demo did not write, or one that no longer loads, is
// never overwritten: the demo refuses to start, before it seeds anything,
// naming the file and what to do.
func TestDemoRefusesAConfigItCannotKeep(t *testing.T) {
	for _, tc := range []struct{ name, text, want string }{
		{"hand-written", "default_profile = \"prod\"\n[profiles.prod]\nbase_url = \"https://api.example.com\"\n",
			"was not written by the demo (it does not start with \"" + demoConfigHeader + "\"), so the demo will not overwrite it; move it away, or use another --data directory"},
		{"broken", demoConfigHeader + ".\n[profiles.alice\n",
			"does not load, and is kept as it is: config "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "config.toml")
			if err := os.WriteFile(path, []byte(tc.text), 0o600); err != nil {
				t.Fatal(err)
			}
			_, _, err := prepareDemoIn(t, dir, "http://127.0.0.1:1")
			if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "another --data directory") {
				t.Fatalf("demo over a %s config: %v\nwant it to name %s and say %q", tc.name, err, path, tc.want)
			}
			if readString(t, path) != tc.text {
				t.Error("the config was changed")
			}
			for _, made := range []string{"keys", "vigil.db", "demo-root.pem"} {
				if _, err := os.Stat(filepath.Join(dir, made)); err == nil {
					t.Errorf("the refused demo made %s", made)
				}
			}
		})
	}
}

// A second 'vigil demo --data DIR' joins the first though the user added a
// profile of another service to DIR/config.toml; that profile is no member.
func TestDemoJoinsPastAUsersOwnProfile(t *testing.T) {
	dir := t.TempDir()
	first, err := startDemo(context.Background(), dir, discardLogger(), discardLogger())
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	appendFile(t, filepath.Join(dir, "config.toml"), "[profiles.prod]\nbase_url = \"https://api.example.com\"\norganization_id = \"o\"\nkey = \"prod\"\n")
	second, err := startDemo(context.Background(), dir, discardLogger(), discardLogger())
	if err != nil {
		t.Fatalf("joining: %v", err)
	}
	defer second.Close()
	if want := []string{"alice", "bob", "carol", "operator"}; !slices.Equal(second.members, want) {
		t.Errorf("joined members %v, want %v", second.members, want)
	}
}

// A demo served on an address other than the loopback (serve --demo --addr
// on a LAN address) writes profiles that load: its plain http is said to be
// meant, in those profiles only.
func TestDemoOnANetworkAddressWritesProfilesThatLoad(t *testing.T) {
	for _, tc := range []struct {
		baseURL   string
		plaintext bool
	}{{"http://192.0.2.7:8420", true}, {"http://127.0.0.1:8420", false}} {
		dir := t.TempDir()
		if _, _, err := prepareDemoIn(t, dir, tc.baseURL); err != nil {
			t.Fatalf("%s: %v", tc.baseURL, err)
		}
		cfg, err := loadConfig(filepath.Join(dir, "config.toml"))
		if err != nil {
			t.Fatalf("%s: the demo's config does not load: %v", tc.baseURL, err)
		}
		p := cfg.Profiles["alice"]
		if p.BaseURL != tc.baseURL || p.AllowPlaintextHTTP != tc.plaintext {
			t.Errorf("%s: alice's profile has base_url %q, allow_plaintext_http %v; want %v", tc.baseURL, p.BaseURL, p.AllowPlaintextHTTP, tc.plaintext)
		}
	}
}
