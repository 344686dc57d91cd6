package api

import (
	"context"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/keys"
)

// A base_url whose certificate is not trusted (a private CA, a TLS-inspecting
// proxy, a self-signed staging host) is among the first errors a new user
// meets: the message names the setting to check and how to trust a CA,
// not Go's x509 chain.
func TestUntrustedCertificateSaysWhatToDo(t *testing.T) {
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {}))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.StartTLS()
	defer srv.Close()
	key, _ := keys.Generate(keys.SchemeP256)
	c, err := NewClient(srv.URL, testOrg, key)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.ListUsers(context.Background())
	if err == nil {
		t.Fatal("a certificate nobody trusts was accepted")
	}
	msg := err.Error()
	host := strings.TrimPrefix(srv.URL, "https://")
	for _, want := range []string{host, "base_url", "SSL_CERT_FILE"} {
		if !strings.Contains(msg, want) {
			t.Errorf("untrusted certificate: %q does not name %s", msg, want)
		}
	}
	if strings.Contains(msg, "x509:") {
		t.Errorf("untrusted certificate: Go's raw x509 error reaches the user: %q", msg)
	}
}

// With an HTTPS proxy set and down, the message names the proxy and the
// variables that chose it, not the service's host as what failed, and not
// Go's raw "proxyconnect tcp: dial tcp" chain. The transport's Proxy is set
// here directly: net/http reads the proxy variables once per process.
func TestProxyDownNamesTheProxy(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	proxy := ln.Addr().String()
	ln.Close() // nothing listens there now
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.Proxy = http.ProxyURL(&url.URL{Scheme: "http", Host: proxy})
	key, _ := keys.Generate(keys.SchemeP256)
	c, err := NewClient("https://api.example.com", testOrg, key, WithHTTPClient(&http.Client{Transport: tr}))
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.ListUsers(context.Background())
	if err == nil {
		t.Fatal("no error through a proxy that is down")
	}
	msg := err.Error()
	for _, want := range []string{"proxy " + proxy, "HTTPS_PROXY", "NO_PROXY"} {
		if !strings.Contains(msg, want) {
			t.Errorf("proxy down: %q does not name %s", msg, want)
		}
	}
	if strings.Contains(msg, "proxyconnect") || strings.Contains(msg, "dial tcp") {
		t.Errorf("proxy down: Go's raw error chain reaches the user: %q", msg)
	}
}
