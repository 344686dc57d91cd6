package proof

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha512"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"math/big"
	"strings"
	"testing"
	"time"
)

// v1Cert re-encodes a freshly created certificate as X.509 version 1 (no
// version field, no extensions: no basic constraints, so not a CA) and signs
// it with parentKey (P-384).
func v1Cert(t *testing.T, tmpl, parent *x509.Certificate, pub *ecdsa.PublicKey, parentKey *ecdsa.PrivateKey) *x509.Certificate {
	t.Helper()
	der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, pub, parentKey)
	if err != nil {
		t.Fatal(err)
	}
	var outer struct {
		TBS    asn1.RawValue
		SigAlg pkix.AlgorithmIdentifier
		Sig    asn1.BitString
	}
	if _, err := asn1.Unmarshal(der, &outer); err != nil {
		t.Fatal(err)
	}
	var tbs struct {
		Version    int `asn1:"optional,explicit,default:0,tag:0"`
		Serial     *big.Int
		SigAlg     pkix.AlgorithmIdentifier
		Issuer     asn1.RawValue
		Validity   asn1.RawValue
		Subject    asn1.RawValue
		PublicKey  asn1.RawValue
		Extensions []asn1.RawValue `asn1:"optional,explicit,tag:3"`
	}
	if _, err := asn1.Unmarshal(outer.TBS.FullBytes, &tbs); err != nil {
		t.Fatal(err)
	}
	tbsDER, err := asn1.Marshal(struct {
		Serial    *big.Int
		SigAlg    pkix.AlgorithmIdentifier
		Issuer    asn1.RawValue
		Validity  asn1.RawValue
		Subject   asn1.RawValue
		PublicKey asn1.RawValue
	}{tbs.Serial, tbs.SigAlg, tbs.Issuer, tbs.Validity, tbs.Subject, tbs.PublicKey})
	if err != nil {
		t.Fatal(err)
	}
	h := sha512.Sum384(tbsDER)
	sig, err := ecdsa.SignASN1(rand.Reader, parentKey, h[:])
	if err != nil {
		t.Fatal(err)
	}
	certDER, err := asn1.Marshal(struct {
		TBS    asn1.RawValue
		SigAlg pkix.AlgorithmIdentifier
		Sig    asn1.BitString
	}{asn1.RawValue{FullBytes: tbsDER}, outer.SigAlg, asn1.BitString{Bytes: sig, BitLength: 8 * len(sig)}})
	if err != nil {
		t.Fatal(err)
	}
	c, err := x509.ParseCertificate(certDER)
	if err != nil {
		t.Fatal(err)
	}
	if c.Version != 1 || c.BasicConstraintsValid || c.IsCA {
		t.Fatalf("not a v1 certificate: version %d, bc %v, ca %v", c.Version, c.BasicConstraintsValid, c.IsCA)
	}
	return c
}

// A version-1 certificate (no basic constraints: not a CA, RFC 5280
// §6.1.4(k)) that signed the leaf fails naming it (cabundle[n], its CN) and
// why, as docs/verification.md promises for any bundle certificate that may
// not issue, not with crypto/x509's bare "not authorized to sign other
// certificates".
func TestVersion1IntermediateIsNamed(t *testing.T) {
	auth, enc, now := testCAEnclave(t)
	key, err := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	ee := v1Cert(t, &x509.Certificate{
		SerialNumber: serial(),
		Subject:      pkix.Name{CommonName: "v1 end entity", OrganizationalUnit: []string{demoMarker}},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.AddDate(1, 0, 0),
	}, auth.root, &key.PublicKey, auth.rootKey)
	issuer := *auth
	issuer.inter, issuer.interKey = ee, key
	bp := enc.BootProof
	bp.AwsAttestationDocB64 = resignedDocument(t, &issuer, enc, nitroLikeLeaf(now), nitroHeaders(), func(r *rawAttestation) {
		r.CABundle = [][]byte{auth.root.Raw, ee.Raw}
	})
	rep := VerifyBootProof(bp, Options{Roots: []Root{auth.Root()}})
	c := rep.Check(CheckChain)
	if c.Status != Fail || rep.Verdict != Failed {
		t.Fatalf("a leaf issued by a v1 certificate verified: %s", dump(rep))
	}
	for _, want := range []string{"cabundle[1]", "v1 end entity", "not a CA", "version-1"} {
		if !strings.Contains(c.Reason, want) {
			t.Errorf("reason %q does not name %q (the certificate that may not issue)", c.Reason, want)
		}
	}
}

// A chain through an intermediate whose path length constraint is exceeded
// fails naming the certificate whose constraint it is, and the constraint.
func TestPathLengthViolationIsNamed(t *testing.T) {
	auth, enc, now := testCAEnclave(t)
	mk := func(name string, parent *x509.Certificate, parentKey *ecdsa.PrivateKey, pathLen int, zero bool) (*x509.Certificate, *ecdsa.PrivateKey) {
		key, err := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		der, err := x509.CreateCertificate(rand.Reader, &x509.Certificate{
			SerialNumber: serial(), Subject: pkix.Name{CommonName: name, OrganizationalUnit: []string{demoMarker}},
			NotBefore: now.Add(-time.Hour), NotAfter: now.AddDate(1, 0, 0),
			KeyUsage: x509.KeyUsageCertSign, BasicConstraintsValid: true, IsCA: true, MaxPathLen: pathLen, MaxPathLenZero: zero,
		}, parent, &key.PublicKey, parentKey)
		if err != nil {
			t.Fatal(err)
		}
		c, err := x509.ParseCertificate(der)
		if err != nil {
			t.Fatal(err)
		}
		return c, key
	}
	zone, zoneKey := mk("pathlen-0 CA", auth.root, auth.rootKey, 0, true)
	inst, instKey := mk("instance CA", zone, zoneKey, -1, false)
	issuer := *auth
	issuer.inter, issuer.interKey = inst, instKey
	bp := enc.BootProof
	bp.AwsAttestationDocB64 = resignedDocument(t, &issuer, enc, nitroLikeLeaf(now), nitroHeaders(), func(r *rawAttestation) {
		r.CABundle = [][]byte{auth.root.Raw, zone.Raw, inst.Raw}
	})
	rep := VerifyBootProof(bp, Options{Roots: []Root{auth.Root()}})
	c := rep.Check(CheckChain)
	if c.Status != Fail || rep.Verdict != Failed {
		t.Fatalf("a chain exceeding a path length constraint verified: %s", dump(rep))
	}
	for _, want := range []string{"cabundle[1]", "pathlen-0 CA", "path length constraint 0 is exceeded"} {
		if !strings.Contains(c.Reason, want) {
			t.Errorf("reason %q does not name %q", c.Reason, want)
		}
	}
}
