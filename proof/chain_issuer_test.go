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

// An intermediate that may not issue certificates (a key usage without
// keyCertSign, or not a CA) is refused, and the reason names it and why,
// rather than "the chain does not lead to a trusted root", which sends the
// reader looking at the roots.
func TestIntermediateThatMayNotIssueIsNamed(t *testing.T) {
	for name, tc := range map[string]struct {
		usage x509.KeyUsage
		isCA  bool
		want  string
	}{
		"no keyCertSign": {usage: x509.KeyUsageDigitalSignature | x509.KeyUsageCRLSign, isCA: true, want: "its key usage lacks keyCertSign"},
		"not a CA":       {usage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature, want: "its basic constraints say it is not a CA"},
	} {
		t.Run(name, func(t *testing.T) {
			auth, enc, now := testCAEnclave(t)
			key, err := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
			if err != nil {
				t.Fatal(err)
			}
			der, err := x509.CreateCertificate(rand.Reader, &x509.Certificate{
				SerialNumber:          serial(),
				Subject:               pkix.Name{CommonName: "unfit CA", OrganizationalUnit: []string{demoMarker}},
				NotBefore:             now.Add(-time.Hour),
				NotAfter:              now.AddDate(1, 0, 0),
				KeyUsage:              tc.usage,
				BasicConstraintsValid: true,
				IsCA:                  tc.isCA,
			}, auth.root, &key.PublicKey, auth.rootKey)
			if err != nil {
				t.Fatal(err)
			}
			unfit, err := x509.ParseCertificate(der)
			if err != nil {
				t.Fatal(err)
			}
			issuer := *auth
			issuer.inter, issuer.interKey = unfit, key
			bp := enc.BootProof
			bp.AwsAttestationDocB64 = resignedDocument(t, &issuer, enc, nitroLikeLeaf(now), nitroHeaders(), func(r *rawAttestation) {
				r.CABundle = [][]byte{auth.root.Raw, unfit.Raw}
			})
			rep := VerifyBootProof(bp, Options{Roots: []Root{auth.Root()}})
			c := rep.Check(CheckChain)
			if c.Status != Fail || rep.Verdict != Failed {
				t.Fatalf("a leaf issued by a CA that may not issue passed: %s", dump(rep))
			}
			for _, want := range []string{"cabundle[1]", "unfit CA", "signed the leaf certificate", tc.want} {
				if !strings.Contains(c.Reason, want) {
					t.Errorf("the reason does not say %q: %q", want, c.Reason)
				}
			}
		})
	}
}
