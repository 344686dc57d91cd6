package profile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func loadText(t *testing.T, text string) (*Config, string, error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := Load(path, Checks{})
	return cfg, path, err
}

// Plain http:// to a host that is not this machine would send every stamped
// request, and the replies the operator votes on, readable and forgeable on
// the way: it is refused, with the file, line and key and what to do, unless
// the profile says allow_plaintext_http = true. The loopback stays fine (vigil
// demo and vigil serve use it).
func TestPlaintextURLToARemoteHostIsRefused(t *testing.T) {
	for key, url := range map[string]string{"base_url": "http://api.example.com", "auth_proxy_url": "http://10.0.0.5:8080"} {
		other := map[string]string{"base_url": "https://api.example.com", "auth_proxy_url": "https://authproxy.example.com"}
		other[key] = url
		text := "[profiles.prod]\nbase_url = \"" + other["base_url"] + "\"\nauth_proxy_url = \"" + other["auth_proxy_url"] + "\"\norganization_id = \"o\"\n"
		_, path, err := loadText(t, text)
		if err == nil {
			t.Errorf("%s = %q loaded", key, url)
			continue
		}
		for _, want := range []string{path, key, "https://", "allow_plaintext_http = true"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s = %q: error %q does not say %q", key, url, err, want)
			}
		}
		cfg, _, err := loadText(t, text+"allow_plaintext_http = true\n")
		if err != nil || !cfg.Profiles["prod"].AllowPlaintextHTTP {
			t.Errorf("%s = %q with allow_plaintext_http = true: %v", key, url, err)
		}
	}
	for _, url := range []string{"http://127.0.0.1:8430", "http://localhost:8430", "http://[::1]:8430", "http://127.1.2.3"} {
		if _, _, err := loadText(t, "[profiles.demo]\nbase_url = \""+url+"\"\nauth_proxy_url = \""+url+"\"\norganization_id = \"o\"\n"); err != nil {
			t.Errorf("loopback %s refused: %v", url, err)
		}
	}
}

// base_url is the service's root: a bare "?" (an empty query that still
// ends up in every request's path) and a copied /public/v1 (requests would go
// to /public/v1/public/v1/…) are refused at load, saying what to write.
func TestBaseURLMistakesAreRefused(t *testing.T) {
	for url, want := range map[string]string{
		"https://api.example.com/?":           "must not carry a query",
		"https://api.example.com/public/v1":   "without /public/v1",
		"https://api.example.com/public/v1/":  "without /public/v1",
		"https://api.example.com/x/public/v1": "without /public/v1",
	} {
		_, path, err := loadText(t, "[profiles.prod]\nbase_url = \""+url+"\"\norganization_id = \"o\"\n")
		if err == nil || !strings.Contains(err.Error(), path+":2: profiles.prod.base_url") || !strings.Contains(err.Error(), want) {
			t.Errorf("base_url = %q: %v; want it refused at line 2 with %q", url, err, want)
		}
	}
	if _, _, err := loadText(t, "[profiles.prod]\nbase_url = \"https://api.example.com/vigil/\"\norganization_id = \"o\"\n"); err != nil {
		t.Errorf("a base_url with a path prefix: %v", err)
	}
}

// The /public/v1 refusal is base_url's, to which vigil adds /public/v1/…:
// an auth proxy mounted under a gateway path holding /public/v1 (vigil adds
// /v1/wallet_kit_config to it), and a base_url whose gateway prefix holds it
// further up, are kept.
func TestPublicV1IsRefusedOnlyAtTheEndOfBaseURL(t *testing.T) {
	for _, text := range []string{
		"[profiles.prod]\nbase_url = \"https://api.example.com\"\nauth_proxy_url = \"https://gw.example.com/public/v1/authproxy\"\nauth_proxy_config_id = \"c\"\norganization_id = \"o\"\n",
		"[profiles.prod]\nbase_url = \"https://gw.example.com/public/v1/tenant-a/\"\norganization_id = \"o\"\n",
	} {
		if _, _, err := loadText(t, text); err != nil {
			t.Errorf("refused: %v\n%s", err, text)
		}
	}
}
