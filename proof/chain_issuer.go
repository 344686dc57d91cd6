package proof

import (
	"bytes"
	"crypto/x509"
	"fmt"
)

// unfitIssuer explains a chain that does not reach a trusted root because a
// bundle certificate that signed the leaf or another bundle certificate may
// not issue certificates (not a CA, or a key usage without keyCertSign).
// crypto/x509 rightly refuses such a parent but reports only an unknown
// authority, which hides the cause. nil when no such certificate is found.
func unfitIssuer(leaf *x509.Certificate, cabundle []*x509.Certificate) error {
	children := []*x509.Certificate{leaf}
	for i, c := range cabundle {
		if i > 0 && c != nil {
			children = append(children, c)
		}
	}
	for i, c := range cabundle {
		if i == 0 || c == nil {
			continue
		}
		fault := issuerFault(c)
		if fault == "" {
			continue
		}
		for _, child := range children {
			if child == c || !bytes.Equal(child.RawIssuer, c.RawSubject) {
				continue
			}
			if c.CheckSignature(child.SignatureAlgorithm, child.RawTBSCertificate, child.Signature) != nil {
				continue
			}
			what := "the leaf certificate"
			if child != leaf {
				what = bundleName(child, cabundle)
			}
			return fmt.Errorf("cabundle[%d] (%s) signed %s but %s, so it may not issue certificates: the chain does not lead to a trusted root", i, clip(c.Subject.CommonName), what, fault)
		}
	}
	return nil
}

// issuerFault is why c may not issue certificates, as crypto/x509 judges a
// parent, or "" when it may.
func issuerFault(c *x509.Certificate) string {
	switch {
	case c.BasicConstraintsValid && !c.IsCA:
		return "its basic constraints say it is not a CA"
	case c.Version == 3 && !c.BasicConstraintsValid:
		return "it has no basic constraints marking it a CA"
	case c.Version < 3 && !c.BasicConstraintsValid:
		// RFC 5280 §6.1.4(k): crypto/x509 checks a v1 (or v2) parent's signature but
		// refuses it on the path (NotAuthorizedToSign).
		return fmt.Sprintf("it is not a CA: a version-%d certificate has no basic constraints", c.Version)
	case c.KeyUsage != 0 && c.KeyUsage&x509.KeyUsageCertSign == 0:
		return "its key usage lacks keyCertSign"
	}
	return ""
}
