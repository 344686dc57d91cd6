package cli

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/webhook"
)

// The key set a --jwks URL names decides which deliveries are reported
// verified: fetched over plain http from another host, one forged on the way
// would vouch for forged deliveries. So it is refused as a profile's base_url
// is (same rule, same words), unless the profile says
// allow_plaintext_http = true; the loopback stays fine.
func TestJWKSOverPlainHTTPToAnotherHostIsRefused(t *testing.T) {
	// Someone on the path: their own key set, and a delivery they signed.
	forger, err := webhook.NewKeyRing()
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(webhook.JWKSHandler(forger))
	defer srv.Close()
	loopback := srv.URL + api.JWKSPath
	// 0.0.0.0 is not the loopback by the rule, yet reaches this listener:
	// without the refusal the forged set is fetched and used.
	remote := strings.Replace(loopback, "127.0.0.1", "0.0.0.0", 1)
	body := activityBody("act-1")
	h, err := forger.Sign(hookOrg, "act-1:ACTIVITY_STATUS_COMPLETED", time.Now(), body)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	bodyFile := filepath.Join(dir, "delivery.body")
	if err := os.WriteFile(bodyFile, body, 0o600); err != nil {
		t.Fatal(err)
	}
	verify := []string{"webhook", "verify", "--organization", hookOrg, "--body", bodyFile}
	for name := range h {
		verify = append(verify, "--header", name+": "+h.Get(name))
	}
	plain := filepath.Join(dir, "plain.toml")
	allowed := filepath.Join(dir, "allowed.toml")
	profileText := "[profiles.p]\nbase_url = \"http://127.0.0.1:1\"\norganization_id = \"" + hookOrg + "\"\n"
	if err := os.WriteFile(plain, []byte(profileText), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(allowed, []byte(profileText+"allow_plaintext_http = true\n"), 0o600); err != nil {
		t.Fatal(err)
	}

	for _, config := range []string{"", plain} {
		env := map[string]string{"VIGIL_CONFIG": config}
		code, out, errOut := runVigil(t, env, "", append(verify, "--jwks", remote)...)
		if code != 2 || strings.Contains(out, "verified") {
			t.Errorf("webhook verify --jwks %s (config %q): exit %d, stdout %q; want it refused (2) before any fetch\nstderr: %s", remote, config, code, out, errOut)
		}
		for _, want := range []string{`webhook verify: --jwks "` + remote + `" is plain http to a host that is not this machine`, "use https://", "allow_plaintext_http = true", "JWKS file"} {
			if !strings.Contains(errOut, want) {
				t.Errorf("webhook verify --jwks %s (config %q) said %q; want %q", remote, config, errOut, want)
			}
		}
		code, out, errOut = runVigil(t, env, "", "webhook", "keys", "--jwks", remote)
		if code != 2 || out != "" {
			t.Errorf("webhook keys --jwks %s (config %q): exit %d, stdout %q; want it refused (2) before any fetch\nstderr: %s", remote, config, code, out, errOut)
		}
		for _, want := range []string{`webhook keys: --jwks "` + remote + `" is plain http to a host that is not this machine`, "use https://", "allow_plaintext_http = true"} {
			if !strings.Contains(errOut, want) {
				t.Errorf("webhook keys --jwks %s (config %q) said %q; want %q", remote, config, errOut, want)
			}
		}
	}

	// The loopback, and any host from a profile that allows plain http.
	for _, tc := range []struct{ url, config string }{{loopback, ""}, {remote, allowed}} {
		env := map[string]string{"VIGIL_CONFIG": tc.config}
		code, out, errOut := runVigil(t, env, "", append(verify, "--jwks", tc.url)...)
		wantExit(t, "webhook verify --jwks "+tc.url+" (config "+tc.config+")", code, 0, out, errOut)
		code, out, errOut = runVigil(t, env, "", "webhook", "keys", "--jwks", tc.url)
		wantExit(t, "webhook keys --jwks "+tc.url+" (config "+tc.config+")", code, 0, out, errOut)
		if !strings.Contains(out, forger.ActiveKeyID()) {
			t.Errorf("webhook keys --jwks %s listed %q; want key %s", tc.url, out, forger.ActiveKeyID())
		}
	}
}

// A --jwks URL refused as plain http is named without its credentials and
// query, as base_url's refusals name it: a password or token in it must not
// reach the terminal or a CI log.
func TestJWKSRefusalDoesNotPrintTheURLsSecrets(t *testing.T) {
	for _, verb := range [][]string{{"webhook", "keys"}, {"webhook", "verify", "--organization", hookOrg, "--body", "-", "--header", "X-Signature: x"}} {
		for _, url := range []string{"http://ops:hunter2-pw@example.com/jwks", "http://example.com/jwks?token=s3cr3t-token"} {
			code, out, errOut := runVigil(t, map[string]string{"VIGIL_CONFIG": ""}, "", append(append([]string{}, verb...), "--jwks", url)...)
			if code != 2 || !strings.Contains(errOut, "is plain http to a host that is not this machine") {
				t.Errorf("%v --jwks %s: exit %d, stdout %q, stderr %q; want the plain-http refusal", verb, url, code, out, errOut)
			}
			for _, secret := range []string{"hunter2-pw", "s3cr3t-token"} {
				if strings.Contains(out+errOut, secret) {
					t.Errorf("%v --jwks %s printed its secret %q:\n%s%s", verb, url, secret, out, errOut)
				}
			}
			if !strings.Contains(errOut, `"http://example.com/jwks" (its credentials, query and fragment not shown)`) {
				t.Errorf("%v --jwks %s: the refusal does not name the URL without its secrets:\n%s", verb, url, errOut)
			}
		}
	}
}
