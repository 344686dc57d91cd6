package cli

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A TLS server whose certificate names carry an OSC 52 clipboard write and a
// screen clear: Go's hostname-mismatch error lists those names verbatim, and every
// verb that reaches the server (webhook keys uses its own net/http client) must
// print them escaped.
func TestHostileCertificateNamesNeverReachTheTerminal(t *testing.T) {
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "x"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		DNSNames:     []string{"evil\x1b]52;c;cm0gLXJmIH4K\x07\x1b[2J.example"},
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}}
	srv.StartTLS()
	defer srv.Close()
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	e := newVerbEnv(t)
	cfg := e.configVia("https://localhost:"+port, filepath.Join(t.TempDir(), "c.toml"))
	for _, args := range [][]string{{"user", "list"}, {"webhook", "keys"}, {"webhook", "verify", "--body", "-", "--header", "X-A: b"}} {
		code, out, errOut := runVigil(t, map[string]string{"VIGIL_CONFIG": cfg}, "{}", args...)
		t.Logf("%v: exit %d\nstdout: %q\nstderr: %q", args, code, out, errOut)
		if strings.ContainsAny(out+errOut, "\x1b\x07") {
			t.Errorf("%v: raw escape sequence from the server's certificate reached the terminal: %q", args, out+errOut)
		}
	}
}
