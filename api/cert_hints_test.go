package api

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"io"
	"log"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/keys"
)

// An HTTPS_PROXY of scheme https:// (a corporate proxy spoken to over TLS)
// whose certificate this system does not trust was reached: the message
// says its certificate is not trusted, names the proxy's address (never the
// password in its URL) and how to trust a CA, not "cannot reach the proxy
// (unreachable)".
func TestHTTPSProxyWithUntrustedCertificateIsNamed(t *testing.T) {
	proxy := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {}))
	proxy.Config.ErrorLog = log.New(io.Discard, "", 0)
	proxy.StartTLS()
	defer proxy.Close()
	pu, err := url.Parse(proxy.URL) // https://127.0.0.1:PORT
	if err != nil {
		t.Fatal(err)
	}
	pu.User = url.UserPassword("ops", "hunter2secret")
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.Proxy = http.ProxyURL(pu)
	msg := listUsersError(t, "https://api.example.com", tr)
	for _, want := range []string{"proxy " + pu.Host, "not trusted", "SSL_CERT_FILE", "HTTPS_PROXY"} {
		if !strings.Contains(msg, want) {
			t.Errorf("an https:// proxy with an untrusted certificate: %q does not say %q", msg, want)
		}
	}
	for _, bad := range []string{"unreachable", "hunter2secret", "x509:", "proxyconnect"} {
		if strings.Contains(msg, bad) {
			t.Errorf("an https:// proxy with an untrusted certificate: %q says %q", msg, bad)
		}
	}
}

// An expired certificate from a trusted CA, or one not yet valid (this
// machine's clock is wrong), says so with its date and this machine's
// time: the private-CA advice cannot fix it, and Go's raw x509 text does
// not reach the user.
func TestCertificateOutOfItsDatesSaysDateAndClock(t *testing.T) {
	now := time.Now()
	for _, c := range []struct {
		name                string
		notBefore, notAfter time.Time
		date                time.Time // the date the message must give
	}{
		{"expired", now.Add(-72 * time.Hour), now.Add(-48 * time.Hour), now.Add(-48 * time.Hour)},
		{"not yet valid", now.Add(48 * time.Hour), now.Add(96 * time.Hour), now.Add(48 * time.Hour)},
	} {
		srv, tr := tlsServer(t, []string{"localhost"}, []net.IP{net.IPv4(127, 0, 0, 1)}, c.notBefore, c.notAfter)
		msg := listUsersError(t, srv.URL, tr)
		for _, want := range []string{strings.TrimPrefix(srv.URL, "https://"), c.date.UTC().Format("2006-01-02"), "clock"} {
			if !strings.Contains(msg, want) {
				t.Errorf("%s certificate: %q does not say %q", c.name, msg, want)
			}
		}
		for _, bad := range []string{"SSL_CERT_FILE", "x509:"} {
			if strings.Contains(msg, bad) {
				t.Errorf("%s certificate: %q says %q", c.name, msg, bad)
			}
		}
	}
}

// A certificate from a trusted CA for another host name (the service is
// reached by its IP address, the certificate is for localhost) says which
// names it is for and to check base_url, not to trust a CA.
func TestCertificateForAnotherHostSaysItsNames(t *testing.T) {
	now := time.Now()
	srv, tr := tlsServer(t, []string{"localhost", "vigil.internal"}, nil, now.Add(-time.Hour), now.Add(time.Hour))
	msg := listUsersError(t, srv.URL, tr)
	for _, want := range []string{"localhost", "vigil.internal", "127.0.0.1", "base_url"} {
		if !strings.Contains(msg, want) {
			t.Errorf("a certificate for another host: %q does not say %q", msg, want)
		}
	}
	for _, bad := range []string{"SSL_CERT_FILE", "x509:"} {
		if strings.Contains(msg, bad) {
			t.Errorf("a certificate for another host: %q says %q", msg, bad)
		}
	}
}

// listUsersError is the error a client of baseURL through tr gets.
func listUsersError(t *testing.T, baseURL string, tr *http.Transport) string {
	t.Helper()
	key, err := keys.Generate(keys.SchemeP256)
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewClient(baseURL, testOrg, key, WithHTTPClient(&http.Client{Transport: tr}))
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.ListUsers(context.Background())
	if err == nil {
		t.Fatal("the request succeeded")
	}
	return err.Error()
}

// tlsServer is a TLS server whose certificate, for names and ips and valid
// from notBefore to notAfter, is signed by a CA the returned transport
// trusts: only what the test sets can be wrong with it.
func tlsServer(t *testing.T, names []string, ips []net.IP, notBefore, notAfter time.Time) (*httptest.Server, *http.Transport) {
	t.Helper()
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	caTmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "test CA"},
		NotBefore: now.Add(-30 * 24 * time.Hour), NotAfter: now.Add(30 * 24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	ca, err := x509.ParseCertificate(caDER)
	if err != nil {
		t.Fatal(err)
	}
	leafKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	leaf := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "leaf"},
		NotBefore: notBefore, NotAfter: notAfter, DNSNames: names, IPAddresses: ips,
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	leafDER, err := x509.CreateCertificate(rand.Reader, leaf, ca, &leafKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {}))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{leafDER}, PrivateKey: leafKey}}}
	srv.StartTLS()
	t.Cleanup(srv.Close)
	pool := x509.NewCertPool()
	pool.AddCert(ca)
	return srv, &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}
}
