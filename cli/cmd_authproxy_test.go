package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// 'vigil authproxy config' shows the demo organization's login-kit
// configuration from the local service's auth proxy.
func TestAuthProxyConfigEndToEnd(t *testing.T) {
	e := newVerbEnv(t)
	proxy := httptest.NewServer(e.demo.Server.AuthProxyHandler())
	t.Cleanup(proxy.Close)
	f, err := os.OpenFile(e.config, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(f, "[profiles.kit]\nbase_url = %q\norganization_id = %q\nkey = \"alice\"\nkeys_dir = %q\nauth_proxy_url = %q\nauth_proxy_config_id = %q\n",
		e.demo.URL, e.demo.Info.OrganizationID, e.demo.KeysDir, proxy.URL, e.demo.Info.AuthProxyConfigID)
	fmt.Fprintf(f, "[profiles.wrongid]\nbase_url = %q\norganization_id = %q\nkey = \"alice\"\nkeys_dir = %q\nauth_proxy_url = %q\nauth_proxy_config_id = \"nope\"\n",
		e.demo.URL, e.demo.Info.OrganizationID, e.demo.KeysDir, proxy.URL)
	f.Close()

	code, out, errOut := e.run("", "authproxy", "config", "--json", "--profile", "kit")
	wantExit(t, "authproxy config --json", code, 0, out, errOut)
	var cfg api.WalletKitConfig
	if err := json.Unmarshal([]byte(out), &cfg); err != nil || cfg.OrganizationID != e.demo.Info.OrganizationID || len(cfg.EnabledProviders) == 0 {
		t.Fatalf("--json: %v\n%s", err, out)
	}

	code, out, errOut = e.run("", "authproxy", "config", "--profile", "kit")
	wantExit(t, "authproxy config", code, 0, out, errOut)
	for _, want := range []string{
		"providers:", strings.Join(cfg.EnabledProviders, ", "),
		"session lifetime:", "15m (900 s)",
		"oauth client id (google):", cfg.OauthClientIDs["google"],
		"redirect url:", cfg.OauthRedirectURL,
		"otp:", cfg.OtpLength + " characters",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("authproxy config lacks %q:\n%s", want, out)
		}
	}

	code, out, errOut = e.run("", "authproxy", "config", "--profile", "wrongid")
	wantExit(t, "a configuration id the proxy does not know", code, 1, out, errOut)
	code, out, errOut = e.run("", "authproxy", "config")
	wantExit(t, "a profile without an auth proxy", code, 1, out, errOut)
	if !strings.Contains(errOut, "auth_proxy_url") {
		t.Errorf("no auth proxy: %s", errOut)
	}
}

// A proxy whose values carry controls: the unreadable session lifetime is
// quoted once, so a real newline and a typed \n print differently.
func TestAuthProxyConfigQuotesUnreadableValuesOnce(t *testing.T) {
	e := newVerbEnv(t)
	inner := e.demo.Server.AuthProxyHandler()
	lifetime := func(value string) string {
		t.Helper()
		proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			rec := httptest.NewRecorder()
			inner.ServeHTTP(rec, r)
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(rec.Code)
			w.Write(bytes.ReplaceAll(rec.Body.Bytes(), []byte(`"sessionExpirationSeconds":"900"`), []byte(`"sessionExpirationSeconds":"`+value+`"`)))
		}))
		t.Cleanup(proxy.Close)
		cfg, err := os.ReadFile(e.config)
		if err != nil {
			t.Fatal(err)
		}
		cfg = fmt.Appendf(cfg, "[profiles.kit]\nbase_url = %q\norganization_id = %q\nkey = \"alice\"\nkeys_dir = %q\nauth_proxy_url = %q\nauth_proxy_config_id = %q\n",
			e.demo.URL, e.demo.Info.OrganizationID, e.demo.KeysDir, proxy.URL, e.demo.Info.AuthProxyConfigID)
		path := filepath.Join(t.TempDir(), "config.toml")
		os.WriteFile(path, cfg, 0o600)
		code, out, errOut := runVigil(t, map[string]string{"VIGIL_CONFIG": path}, "", "authproxy", "config", "--profile", "kit")
		wantExit(t, "authproxy config", code, 0, out, errOut)
		wantOnlyEscaped(t, "authproxy config", out)
		return lineOf(t, out, "session lifetime:")
	}
	real, typed := lifetime(`9\n\u202e`), lifetime(`9\\n\\u202e`)
	if real == typed || !strings.Contains(real, `unreadable: "9\n\u202e"`) || !strings.Contains(typed, `unreadable: "9\\n\\u202e"`) {
		t.Errorf("the lifetimes should differ, each quoted once:\n%s\n%s", real, typed)
	}
}
