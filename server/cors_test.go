package server

import (
	"context"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
)

// listsToken reports whether the comma-separated header value lists token,
// compared as CORS does for methods and header names (names case-insensitively).
func listsToken(value, token string) bool {
	return slices.ContainsFunc(strings.Split(value, ","), func(v string) bool {
		return strings.EqualFold(strings.TrimSpace(v), token)
	})
}

// A browser login kit's POST carries X-Auth-Proxy-Config-Id, so the browser
// first sends a preflight (OPTIONS). The proxy answers it so the POST may go
// ahead, and lets the page read the reply: the configuration, and an error
// too, so the kit can show why it was refused. No credentials (cookies) are
// ever allowed: the config id header is the only credential.
func TestBrowsersMayCallTheProxyAndTheStampedAPI(t *testing.T) {
	e := newEnv(t)
	info, err := SeedDemo(context.Background(), e.srv, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	proxy := httpServer(t, e.srv.AuthProxyHandler())
	const origin = "http://localhost:3000"
	payload := "{}" // the body of a POST
	send := func(method, url, configID string, h map[string]string) (*http.Response, string) {
		t.Helper()
		var body io.Reader
		if method == http.MethodPost {
			body = strings.NewReader(payload)
		}
		req, err := http.NewRequest(method, url, body)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Origin", origin)
		if configID != "" {
			req.Header.Set(api.AuthProxyConfigIDHeader, configID)
		}
		for k, v := range h {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}
	readable := func(what string, resp *http.Response) {
		t.Helper()
		if got := resp.Header.Get("Access-Control-Allow-Origin"); got != "*" && got != origin {
			t.Errorf("%s: Access-Control-Allow-Origin %q: a page at %s cannot read the reply", what, got, origin)
		}
		for _, h := range []string{"Retry-After", "Date"} {
			if got := resp.Header.Get("Access-Control-Expose-Headers"); !listsToken(got, h) {
				t.Errorf("%s: Access-Control-Expose-Headers %q: a page cannot read %s", what, got, h)
			}
		}
		if got := resp.Header.Get("Access-Control-Allow-Credentials"); got != "" {
			t.Errorf("%s: Access-Control-Allow-Credentials %q: the proxy takes no cookies", what, got)
		}
	}

	requested := []string{"content-type", strings.ToLower(api.AuthProxyConfigIDHeader)}
	resp, _ := send(http.MethodOptions, proxy+api.WalletKitConfigPath, "", map[string]string{
		"Access-Control-Request-Method":  "POST",
		"Access-Control-Request-Headers": strings.Join(requested, ","),
	})
	if resp.StatusCode != http.StatusNoContent {
		t.Fatalf("preflight: HTTP %d, want 204", resp.StatusCode)
	}
	readable("preflight", resp)
	if got := resp.Header.Get("Access-Control-Allow-Methods"); !listsToken(got, "POST") {
		t.Errorf("preflight: Access-Control-Allow-Methods %q does not allow POST", got)
	}
	for _, h := range requested {
		if got := resp.Header.Get("Access-Control-Allow-Headers"); !listsToken(got, h) {
			t.Errorf("preflight: Access-Control-Allow-Headers %q does not allow %s", got, h)
		}
	}
	if resp.Header.Get("Access-Control-Max-Age") == "" {
		t.Errorf("preflight: no Access-Control-Max-Age: the browser preflights every call")
	}

	resp, body := send(http.MethodPost, proxy+api.WalletKitConfigPath, info.AuthProxyConfigID, map[string]string{"Content-Type": "application/json"})
	if resp.StatusCode != http.StatusOK || !strings.Contains(body, info.OrganizationID) {
		t.Fatalf("config: HTTP %d %s", resp.StatusCode, body)
	}
	readable("config", resp)
	resp, body = send(http.MethodPost, proxy+api.WalletKitConfigPath, "no-such-config", nil)
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("unknown config id: HTTP %d %s", resp.StatusCode, body)
	}
	readable("unknown config id", resp)
	resp, _ = send(http.MethodGet, proxy+api.WalletKitConfigPath, "", nil)
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Fatalf("GET: HTTP %d", resp.StatusCode)
	}
	readable("GET", resp)

	// The stamped API answers browsers as well: the official browser
	// clients stamp in the page and call it directly.
	stamped := []string{"content-type", strings.ToLower(keys.HeaderStamp), strings.ToLower(keys.HeaderStampWebAuthn)}
	for _, path := range []string{api.QueryPrefix + api.QueryWhoami, api.SubmitPrefix + "create_policy"} {
		resp, _ = send(http.MethodOptions, e.http.URL+path, "", map[string]string{
			"Access-Control-Request-Method":  "POST",
			"Access-Control-Request-Headers": strings.Join(stamped, ","),
		})
		if resp.StatusCode != http.StatusNoContent {
			t.Fatalf("preflight of %s: HTTP %d, want 204", path, resp.StatusCode)
		}
		readable("preflight of "+path, resp)
		for _, h := range stamped {
			if got := resp.Header.Get("Access-Control-Allow-Headers"); !listsToken(got, h) {
				t.Errorf("preflight of %s: Access-Control-Allow-Headers %q does not allow %s", path, got, h)
			}
		}
	}
	payload = string(whoamiBody(e.org.ID))
	name, value, err := e.keys["alice"].Stamp([]byte(payload))
	if err != nil {
		t.Fatal(err)
	}
	resp, got := send(http.MethodPost, e.http.URL+api.QueryPrefix+api.QueryWhoami, "", map[string]string{name: value, "Content-Type": "application/json"})
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("stamped whoami from a page: HTTP %d %s", resp.StatusCode, got)
	}
	readable("stamped whoami", resp)
	resp, _ = send(http.MethodPost, e.http.URL+api.QueryPrefix+api.QueryWhoami, "", nil)
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("unstamped whoami: HTTP %d", resp.StatusCode)
	}
	readable("unstamped whoami", resp)
}
