package profile

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const goodProfile = "[profiles.prod]\nbase_url = \"https://api.example.com\"\norganization_id = \"o\"\n"

func loadConfigText(t *testing.T, text string, checks Checks) (*Config, error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return Load(path, checks)
}

// Two spellings of one key are two TOML keys that the decoder maps onto one
// field in random order: read_only = true with READ_ONLY = false made a
// read-only profile submit on some runs. Both spellings together are refused,
// naming both lines.
func TestKeySetTwiceInAnotherCaseIsRefused(t *testing.T) {
	for _, tc := range []struct{ name, text, key, want string }{
		{"read_only", goodProfile + "read_only = true\nREAD_ONLY = false\n", "profiles.prod.READ_ONLY", "as read_only (line 4) and READ_ONLY (line 5)"},
		{"base_url", goodProfile + "Base_URL = \"https://evil.example.com\"\n", "profiles.prod.Base_URL", "as base_url (line 2) and Base_URL (line 4)"},
		{"default_profile", "default_profile = \"prod\"\nDEFAULT_PROFILE = \"prod\"\n" + goodProfile, "DEFAULT_PROFILE", "as default_profile (line 1) and DEFAULT_PROFILE (line 2)"},
		{"profiles table", goodProfile + "read_only = true\n[Profiles.prod]\nbase_url = \"https://b.example.com\"\norganization_id = \"o\"\n", "Profiles", "as profiles (line 1) and Profiles (line 5)"},
	} {
		_, err := loadConfigText(t, tc.text, Checks{})
		if err == nil || !strings.Contains(err.Error(), tc.key+": set twice") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v; want %s refused as set twice, %s", tc.name, err, tc.key, tc.want)
		}
	}
}

// A known key in another case, even alone, is refused with the spelling to
// write, in every table the config has.
func TestKeyInAnotherCaseIsRefused(t *testing.T) {
	for _, tc := range []struct{ text, key, want string }{
		{goodProfile + "Read_Only = true\n", "profiles.prod.Read_Only", ":4:"},
		{"Default_Profile = \"prod\"\n" + goodProfile, "Default_Profile", ":1:"},
		{goodProfile + "[profiles.prod.filters.mine]\nStatuses = [\"x\"]\n", "profiles.prod.filters.mine.Statuses", ":5:"},
		{goodProfile + "Allow_Plaintext_HTTP = true\n", "profiles.prod.Allow_Plaintext_HTTP", ":4:"},
		{goodProfile + "KEY = \"alice\"\n", "profiles.prod.KEY", ":4:"},
	} {
		_, err := loadConfigText(t, tc.text, Checks{})
		want := strings.ToLower(tc.key[strings.LastIndex(tc.key, ".")+1:])
		if err == nil || !strings.Contains(err.Error(), tc.key+": keys are lower case; write "+want) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v; want %s refused at %s, saying to write %s", tc.text, err, tc.key, tc.want, want)
		}
	}
	// Names the user chooses keep their case.
	cfg, err := loadConfigText(t, "[profiles.Prod]\nbase_url = \"https://api.example.com\"\norganization_id = \"o\"\n[profiles.Prod.filters.Mine]\nstatuses = [\"x\"]\n", Checks{})
	if err != nil || len(cfg.Profiles["Prod"].Filters["Mine"].Statuses) != 1 {
		t.Errorf("a profile and a filter named in upper case: %v", err)
	}
}

// TOML puts every key after [profiles.a.keys] into that table: a profile key
// written there is explained as such, not as a bad PCR index or type.
func TestProfileKeyBelowSubTableHeader(t *testing.T) {
	for _, tc := range []struct{ sub, table string }{
		{"[profiles.prod.keys]\n", "profiles.prod.keys"},
		{"[profiles.prod.filters.x]\nstatuses = [\"a\"]\n", "profiles.prod.filters.x"},
		{"[profiles.prod.expected_pcrs.signer]\n", "profiles.prod.expected_pcrs.signer"},
		{"[profiles.prod.expected_pcrs]\n", "profiles.prod.expected_pcrs"},
	} {
		text := goodProfile + tc.sub + "read_only = true\n"
		line := strings.Count(text, "\n")
		_, err := loadConfigText(t, text, Checks{KeyActions: []string{"approve"}})
		want := "read_only is a key of the profile, but line " + strconv.Itoa(line) + " is inside the [" + tc.table + "] table that starts at line 4"
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "move it above that header") {
			t.Errorf("%s: %v; want %q", tc.sub, err, want)
		}
	}
	// A key action named like a profile key is rebound, not misplaced.
	cfg, err := loadConfigText(t, goodProfile+"[profiles.prod.keys]\nrefresh = [\"ctrl+r\"]\n", Checks{KeyActions: []string{"refresh"}})
	if err != nil || len(cfg.Profiles["prod"].Keys["refresh"]) != 1 {
		t.Errorf("key action refresh: %v", err)
	}
}
