package proof

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"strings"
	"testing"
	"time"
)

// testCA is a CA certificate with extended key usage eku (and unknown, and
// an empty extension when empty), issued by parent with parentKey.
func testCA(t *testing.T, name string, now time.Time, parent *x509.Certificate, parentKey *ecdsa.PrivateKey, eku []x509.ExtKeyUsage, unknown []asn1.ObjectIdentifier, empty bool) (*x509.Certificate, *ecdsa.PrivateKey) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          serial(),
		Subject:               pkix.Name{CommonName: name, OrganizationalUnit: []string{demoMarker}},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.AddDate(1, 0, 0),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
		IsCA:                  true,
		ExtKeyUsage:           eku,
		UnknownExtKeyUsage:    unknown,
	}
	if empty {
		tmpl.ExtraExtensions = []pkix.Extension{{Id: oidExtKeyUsage, Value: []byte{0x30, 0x00}}}
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

// An intermediate whose extended key usage restricts it to another purpose
// (TLS, code signing, an unknown one) may issue only for that purpose: a
// Nitro-shaped leaf it issued must not sign a document, even though the leaf
// itself carries no extended key usage. The reason names the certificate and
// what it is restricted to. Real Nitro CAs carry none (TestProductionBootProofVerifies
// still passes), and one that lists anyExtendedKeyUsage restricts nothing.
func TestIntermediateRestrictedToAnotherPurposeMayNotIssueTheLeaf(t *testing.T) {
	for name, tc := range map[string]struct {
		eku     []x509.ExtKeyUsage
		unknown []asn1.ObjectIdentifier
		empty   bool
		deeper  bool     // the restricted CA issues a clean CA that issues the leaf
		want    []string // nil: the chain verifies
	}{
		"TLS":                {eku: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}, want: []string{"serverAuth"}},
		"code signing":       {eku: []x509.ExtKeyUsage{x509.ExtKeyUsageCodeSigning}, want: []string{"codeSigning"}},
		"unknown":            {unknown: []asn1.ObjectIdentifier{{1, 2, 3, 4, 5}}, want: []string{"1.2.3.4.5"}},
		"empty":              {empty: true, want: []string{"empty"}},
		"TLS, one CA higher": {eku: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}, deeper: true, want: []string{"serverAuth"}},
		"any":                {eku: []x509.ExtKeyUsage{x509.ExtKeyUsageAny}},
		"TLS and any":        {eku: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageAny}},
	} {
		t.Run(name, func(t *testing.T) {
			auth, enc, now := testCAEnclave(t)
			restricted, key := testCA(t, "restricted CA", now, auth.root, auth.rootKey, tc.eku, tc.unknown, tc.empty)
			bundle := [][]byte{auth.root.Raw, restricted.Raw}
			issuer := *auth
			issuer.inter, issuer.interKey = restricted, key
			if tc.deeper {
				clean, cleanKey := testCA(t, "clean CA", now, restricted, key, nil, nil, false)
				bundle = append(bundle, clean.Raw)
				issuer.inter, issuer.interKey = clean, cleanKey
			}
			bp := enc.BootProof
			bp.AwsAttestationDocB64 = resignedDocument(t, &issuer, enc, nitroLikeLeaf(now), nitroHeaders(), func(r *rawAttestation) { r.CABundle = bundle })
			rep := VerifyBootProof(bp, Options{Roots: []Root{auth.Root()}})
			c := rep.Check(CheckChain)
			if tc.want == nil {
				if c.Status != Pass || rep.Verdict != Verified {
					t.Fatalf("a CA that may issue for any purpose was refused: %s", dump(rep))
				}
				return
			}
			if c.Status != Fail || rep.Verdict != Failed {
				t.Fatalf("a leaf issued by a CA restricted to %s signed the document and passed: %s", name, dump(rep))
			}
			for _, want := range append(tc.want, "cabundle[1]", "restricted CA", "extended key usage") {
				if !strings.Contains(c.Reason, want) {
					t.Errorf("the reason does not say %q: %q", want, c.Reason)
				}
			}
		})
	}
}

// The same CA (subject and key) in the bundle twice, once restricted to TLS
// and once not, makes two chains: the unrestricted one may issue the leaf.
func TestUnrestrictedChainBesideARestrictedOneVerifies(t *testing.T) {
	auth, enc, now := testCAEnclave(t)
	tmpl := func(eku []x509.ExtKeyUsage) *x509.Certificate {
		return &x509.Certificate{
			SerialNumber:          serial(),
			Subject:               auth.inter.Subject,
			NotBefore:             now.Add(-time.Hour),
			NotAfter:              now.AddDate(1, 0, 0),
			KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
			BasicConstraintsValid: true,
			IsCA:                  true,
			ExtKeyUsage:           eku,
		}
	}
	restricted, err := x509.CreateCertificate(rand.Reader, tmpl([]x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}), auth.root, &auth.interKey.PublicKey, auth.rootKey)
	if err != nil {
		t.Fatal(err)
	}
	bp := enc.BootProof
	bp.AwsAttestationDocB64 = resignedDocument(t, auth, enc, nitroLikeLeaf(now), nitroHeaders(), func(r *rawAttestation) {
		r.CABundle = [][]byte{auth.root.Raw, restricted, auth.inter.Raw}
	})
	if rep := VerifyBootProof(bp, Options{Roots: []Root{auth.Root()}}); rep.Verdict != Verified {
		t.Fatalf("an unrestricted chain beside a restricted one was refused: %s", dump(rep))
	}
}
