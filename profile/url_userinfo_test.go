package profile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// base_url or auth_proxy_url with credentials (or a secret in the query) is
// refused, and the refusal must not print the secret: it goes to the
// terminal, the CI log and the console's error line.
func TestBaseURLCredentialsAreNotPrinted(t *testing.T) {
	const secret = "hunter2-s3cr3t-proxy-password"
	for _, key := range []string{"base_url", "auth_proxy_url"} {
		for _, bad := range []string{"https://ops:" + secret + "@api.example.com", "https://api.example.com/?token=" + secret} {
			conf := "[profiles.p]\norganization_id = \"o\"\n" + key + " = \"" + bad + "\"\n"
			if key != "base_url" {
				conf += "base_url = \"https://api.example.com\"\n"
			}
			path := filepath.Join(t.TempDir(), "config.toml")
			if err := os.WriteFile(path, []byte(conf), 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := Load(path, Checks{})
			if err == nil {
				t.Fatalf("%s = %q accepted", key, bad)
			}
			if strings.Contains(err.Error(), secret) {
				t.Errorf("%s: the refusal prints the secret: %v", key, err)
			}
		}
	}
}

// Without "//", or without a scheme, url.Parse finds no user info in a URL
// (it reads "ops:pw@host" as scheme "ops" and an opaque part), yet the text
// still carries the password.
func TestBaseURLWithoutSlashesCredentialsAreNotPrinted(t *testing.T) {
	const secret = "hunter2-s3cr3t-proxy-password"
	for _, bad := range []string{
		"https:ops:" + secret + "@api.example.com",
		"ops:" + secret + "@api.example.com",
		"https:/ops:" + secret + "@api.example.com",
		"ops:" + secret + "@api.example.com?x=1",
		"https:api.example.com/#" + secret,
	} {
		conf := "[profiles.p]\norganization_id = \"o\"\nbase_url = \"" + bad + "\"\n"
		path := filepath.Join(t.TempDir(), "config.toml")
		if err := os.WriteFile(path, []byte(conf), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := Load(path, Checks{})
		if err == nil {
			t.Fatalf("base_url = %q accepted", bad)
		}
		if strings.Contains(err.Error(), secret) {
			t.Errorf("base_url = %q: the refusal prints the password: %v", bad, err)
		}
	}
}

// A wrong URL with nothing secret in it is still quoted, so the user sees
// what to correct.
func TestBaseURLWithoutSecretIsQuoted(t *testing.T) {
	const bad = "ftp://api.example.com/v1"
	conf := "[profiles.p]\norganization_id = \"o\"\nbase_url = \"" + bad + "\"\n"
	path := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(path, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Load(path, Checks{})
	if err == nil || !strings.Contains(err.Error(), `"`+bad+`"`) {
		t.Errorf("base_url = %q: got %v, want the URL quoted", bad, err)
	}
}
