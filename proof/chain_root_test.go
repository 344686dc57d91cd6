package proof

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"strings"
	"testing"
	"time"
)

// A configured trusted root whose own path length constraint (0) the chain
// exceeds: the reason names that root, the configured one, not the
// document's copy of it (cabundle[0], never the anchor) nor "an intermediate
// certificate" when the document carries no copy.
func TestRootPathLenNamesTrustedRoot(t *testing.T) {
	_, enc, now := testCAEnclave(t)
	mk := func(name string, parent *x509.Certificate, parentKey *ecdsa.PrivateKey, pathLen int, zero bool) (*x509.Certificate, *ecdsa.PrivateKey) {
		key, err := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		tmpl := &x509.Certificate{
			SerialNumber: serial(), Subject: pkix.Name{CommonName: name, OrganizationalUnit: []string{demoMarker}},
			NotBefore: now.Add(-time.Hour), NotAfter: now.AddDate(1, 0, 0),
			KeyUsage: x509.KeyUsageCertSign, BasicConstraintsValid: true, IsCA: true, MaxPathLen: pathLen, MaxPathLenZero: zero,
		}
		if parent == nil {
			parent, parentKey = tmpl, key
		}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, &key.PublicKey, parentKey)
		if err != nil {
			t.Fatal(err)
		}
		c, err := x509.ParseCertificate(der)
		if err != nil {
			t.Fatal(err)
		}
		return c, key
	}
	root, rootKey := mk("pathlen-0 root", nil, nil, 0, true)
	inter, interKey := mk("instance CA", root, rootKey, -1, false)
	issuer := &DemoAuthority{root: root, rootKey: rootKey, inter: inter, interKey: interKey}
	for _, tc := range []struct {
		name   string
		bundle [][]byte
	}{
		{"root copy in cabundle[0]", [][]byte{root.Raw, inter.Raw}},
		{"no root copy", [][]byte{inter.Raw, inter.Raw}},
	} {
		bp := enc.BootProof
		bp.AwsAttestationDocB64 = resignedDocument(t, issuer, enc, nitroLikeLeaf(now), nitroHeaders(), func(r *rawAttestation) {
			r.CABundle = tc.bundle
		})
		rep := VerifyBootProof(bp, Options{Roots: []Root{{Name: "ops-root.pem", Cert: root}}})
		c := rep.Check(CheckChain)
		if c.Status != Fail {
			t.Fatalf("%s: verified: %s", tc.name, dump(rep))
		}
		for _, want := range []string{"trusted root", "ops-root.pem", "trusted_roots", "pathlen-0 root", "path length constraint 0 is exceeded"} {
			if !strings.Contains(c.Reason, want) {
				t.Errorf("%s: reason %q does not say %q", tc.name, c.Reason, want)
			}
		}
		if strings.Contains(c.Reason, "cabundle[") || strings.Contains(c.Reason, "an intermediate certificate") {
			t.Errorf("%s: the reason blames a bundle certificate for the trusted root's own constraint: %q", tc.name, c.Reason)
		}
	}
}

// A certificate without basic constraints is described by its own version:
// a version-2 one is not called version-1.
func TestIssuerFaultSaysTheVersion(t *testing.T) {
	for _, v := range []int{1, 2} {
		got := issuerFault(&x509.Certificate{Version: v})
		if want := "a version-" + string(rune('0'+v)) + " certificate"; !strings.Contains(got, want) {
			t.Errorf("version %d: %q, want it to say %q", v, got, want)
		}
	}
}
