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
