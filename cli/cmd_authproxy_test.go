package cli

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
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
