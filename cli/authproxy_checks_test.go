package cli

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// kitConfig writes the env's config plus profile "kit" on the local
// service's auth proxy, its replies passed through rewrite (nil: as sent),
// with alice's key or, withKey false, none; it returns the config's path.
func kitConfig(t *testing.T, e *verbEnv, rewrite func([]byte) []byte, withKey bool) string {
	t.Helper()
	inner := e.demo.Server.AuthProxyHandler()
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		inner.ServeHTTP(rec, r)
		body := rec.Body.Bytes()
		if rewrite != nil {
			body = rewrite(body)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(rec.Code)
		w.Write(body)
	}))
	t.Cleanup(proxy.Close)
	cfg, err := os.ReadFile(e.config)
	if err != nil {
		t.Fatal(err)
	}
	key := ""
	if withKey {
		key = fmt.Sprintf("key = \"alice\"\nkeys_dir = %q\n", e.demo.KeysDir)
	}
	cfg = fmt.Appendf(cfg, "[profiles.kit]\nbase_url = %q\norganization_id = %q\n%sauth_proxy_url = %q\nauth_proxy_config_id = %q\n",
		e.demo.URL, e.demo.Info.OrganizationID, key, proxy.URL, e.demo.Info.AuthProxyConfigID)
	path := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(path, cfg, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// The auth proxy is authenticated by the configuration id alone (SPEC,
// Authentication): a profile with no key reads the login kit.
func TestAuthProxyConfigNeedsNoKey(t *testing.T) {
	e := newVerbEnv(t)
	env := map[string]string{"VIGIL_CONFIG": kitConfig(t, e, nil, false)}
	for _, args := range [][]string{{"authproxy", "config", "--profile", "kit"}, {"authproxy", "config", "--json", "--profile", "kit"}} {
		code, out, errOut := runVigil(t, env, "", args...)
		wantExit(t, strings.Join(args, " ")+" without a key", code, exitOK, out, errOut)
		if !strings.Contains(out, e.demo.Info.OrganizationID) {
			t.Errorf("%s: the login kit is not shown:\n%s", strings.Join(args, " "), out)
		}
	}
}

// A reply without the fields SPEC requires of a login-kit configuration is
// refused, naming those missing, text and --json alike.
func TestAuthProxyConfigRefusesAReplyWithoutRequiredFields(t *testing.T) {
	e := newVerbEnv(t)
	org := e.demo.Info.OrganizationID
	for _, tc := range []struct {
		rewrite func([]byte) []byte
		want    string
	}{
		{func([]byte) []byte { return []byte(`{}`) }, "the reply lacks enabledProviders, sessionExpirationSeconds, organizationId"},
		{func(b []byte) []byte {
			return bytes.Replace(b, []byte(`"organizationId":"`+org+`"`), []byte(`"organizationId":""`), 1)
		},
			"the reply lacks organizationId,"},
	} {
		env := map[string]string{"VIGIL_CONFIG": kitConfig(t, e, tc.rewrite, true)}
		for _, args := range [][]string{{"authproxy", "config", "--profile", "kit"}, {"authproxy", "config", "--json", "--profile", "kit"}} {
			code, out, errOut := runVigil(t, env, "", args...)
			wantExit(t, strings.Join(args, " "), code, exitFailure, out, errOut)
			if !strings.Contains(errOut, tc.want) || out != "" {
				t.Errorf("%s: want nothing printed and the error %q:\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), tc.want, out, errOut)
			}
		}
	}
}

// A login kit of another organization is shown marked as such, and the
// command exits 1 saying so; --json prints nothing of it.
func TestAuthProxyConfigOfAnotherOrganization(t *testing.T) {
	e := newVerbEnv(t)
	org, other := e.demo.Info.OrganizationID, "ffffffff-0000-7000-8000-000000000000"
	env := map[string]string{"VIGIL_CONFIG": kitConfig(t, e, func(b []byte) []byte {
		return bytes.ReplaceAll(b, []byte(org), []byte(other))
	}, true)}
	want := "this login kit is organization " + other + "'s, not this profile's (" + org + ")"
	code, out, errOut := runVigil(t, env, "", "authproxy", "config", "--profile", "kit")
	wantExit(t, "authproxy config", code, exitFailure, out, errOut)
	if line := lineOf(t, out, "organization:"); !strings.Contains(line, other+" (NOT this profile's organization "+org+")") {
		t.Errorf("the organization row does not say it is another's: %q", line)
	}
	if !strings.Contains(errOut, want) {
		t.Errorf("the error does not say %q:\n%s", want, errOut)
	}
	code, out, errOut = runVigil(t, env, "", "authproxy", "config", "--json", "--profile", "kit")
	wantExit(t, "authproxy config --json", code, exitFailure, out, errOut)
	if out != "" || !strings.Contains(errOut, want) {
		t.Errorf("--json: want nothing printed and the error %q:\nstdout:\n%s\nstderr:\n%s", want, out, errOut)
	}
}
