package proof

import (
	"bytes"
	"crypto/x509"
	"encoding/asn1"
	"fmt"
)

// oidAnyExtKeyUsage is anyExtendedKeyUsage (RFC 5280 §4.2.1.12).
var oidAnyExtKeyUsage = asn1.ObjectIdentifier{2, 5, 29, 37, 0}

// restrictedIssuer refuses a chain (leaf first, root last) in which a
// certificate between the leaf and the root has an extended key usage that
// does not include anyExtendedKeyUsage. Such a CA may issue only for the
// purposes it lists (EKU nesting, as browsers and Go's own Verify apply it
// when asked for a purpose), and signing an attestation document is none of
// them: a CA issued for TLS or code signing under a trusted root must not be
// able to issue a leaf that signs one. Real Nitro CAs carry no extended key
// usage. Verify cannot apply this for us: there is no attestation purpose to
// ask for, and asking for ExtKeyUsageAny skips the check.
func restrictedIssuer(chain []*x509.Certificate, cabundle []*x509.Certificate) error {
	if len(chain) < 3 {
		return nil
	}
	for _, c := range chain[1 : len(chain)-1] {
		for _, e := range c.Extensions {
			if !e.Id.Equal(oidExtKeyUsage) || listsAnyExtKeyUsage(e.Value) {
				continue
			}
			return fmt.Errorf("%s (%s) is a CA restricted by its extended key usage to %s, so it may not issue the certificate that signs an attestation document (a Nitro CA carries no extended key usage)", bundleName(c, cabundle), clip(c.Subject.CommonName), extKeyUsageNames(e.Value))
		}
	}
	return nil
}

// listsAnyExtKeyUsage reports whether an extended key usage extension's value
// lists anyExtendedKeyUsage; an unreadable one lists nothing.
func listsAnyExtKeyUsage(value []byte) bool {
	var oids []asn1.ObjectIdentifier
	if rest, err := asn1.Unmarshal(value, &oids); err != nil || len(rest) != 0 {
		return false
	}
	for _, oid := range oids {
		if oid.Equal(oidAnyExtKeyUsage) {
			return true
		}
	}
	return false
}

// bundleName names c by its place in the document's cabundle, from
// cabundle[1]: cabundle[0], the document's copy of the root, is never on a
// path (a root is named by chainCertName).
func bundleName(c *x509.Certificate, cabundle []*x509.Certificate) string {
	for i, b := range cabundle {
		if i > 0 && b != nil && bytes.Equal(b.Raw, c.Raw) {
			return fmt.Sprintf("cabundle[%d]", i)
		}
	}
	return "an intermediate certificate"
}
