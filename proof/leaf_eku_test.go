package proof

import (
	"crypto/x509"
	"encoding/asn1"
	"strings"
	"testing"
)

// A real Nitro leaf carries no extended key usage (the production boot proof
// and the other Nitro document in testdata: basicConstraints and keyUsage
// only). A leaf whose extension says it is for TLS, code signing, anything at
// all, was issued for another purpose: it must not sign a document, and the
// reason names what the extension says.
func TestLeafWithAnExtendedKeyUsageIsRefused(t *testing.T) {
	for name, tc := range map[string]struct {
		eku     []x509.ExtKeyUsage
		unknown []asn1.ObjectIdentifier
		want    []string
	}{
		"TLS":          {eku: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth}, want: []string{"serverAuth", "clientAuth"}},
		"code signing": {eku: []x509.ExtKeyUsage{x509.ExtKeyUsageCodeSigning}, want: []string{"codeSigning"}},
		"any":          {eku: []x509.ExtKeyUsage{x509.ExtKeyUsageAny}, want: []string{"anyExtendedKeyUsage"}},
		"unknown":      {unknown: []asn1.ObjectIdentifier{{1, 2, 3, 4, 5}}, want: []string{"1.2.3.4.5"}},
	} {
		t.Run(name, func(t *testing.T) {
			auth, enc, now := testCAEnclave(t)
			leaf := nitroLikeLeaf(now)
			leaf.ExtKeyUsage = tc.eku
			leaf.UnknownExtKeyUsage = tc.unknown
			bp := enc.BootProof
			bp.AwsAttestationDocB64 = resignedDocument(t, auth, enc, leaf, nitroHeaders(), nil)
			rep := VerifyBootProof(bp, Options{Roots: []Root{auth.Root()}})
			c := rep.Check(CheckChain)
			if c.Status != Fail || rep.Verdict != Failed {
				t.Fatalf("a leaf with the extended key usage %s signed the document and passed: %s", name, dump(rep))
			}
			for _, want := range append(tc.want, "leaf certificate", "extended key usage") {
				if !strings.Contains(c.Reason, want) {
					t.Errorf("the reason does not say %q: %q", want, c.Reason)
				}
			}
		})
	}
}
