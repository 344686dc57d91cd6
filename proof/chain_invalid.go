package proof

import (
	"bytes"
	"crypto/x509"
	"errors"
	"fmt"
)

// invalidIssuer names the certificate crypto/x509 refused on a path it built
// (CertificateInvalidError), with why, rather than Go's bare text, which says
// neither which certificate nor its CN: a version-1 intermediate (no basic
// constraints, so not a CA) passes the signature check and is refused as
// NotAuthorizedToSign; an exceeded path length as TooManyIntermediates, whose
// certificate may be a trusted root's own (roots, the anchors Verify used).
// nil when err is not such an error.
func invalidIssuer(err error, leaf *x509.Certificate, cabundle []*x509.Certificate, roots []Root) error {
	var inv x509.CertificateInvalidError
	if !errors.As(err, &inv) || inv.Cert == nil {
		return nil
	}
	c := inv.Cert
	name := "the leaf certificate"
	if c != leaf {
		name = chainCertName(c, cabundle, roots)
	}
	switch inv.Reason {
	case x509.NotAuthorizedToSign:
		fault := issuerFault(c)
		if fault == "" {
			fault = "it is not a CA"
		}
		return fmt.Errorf("%s may not issue certificates (%s), so the chain does not verify", name, fault)
	case x509.TooManyIntermediates:
		return fmt.Errorf("%s allows at most %d intermediate certificate(s) below it (its path length constraint %d is exceeded), so the chain does not verify", name, c.MaxPathLen, c.MaxPathLen)
	}
	return fmt.Errorf("certificate chain does not verify: %s: %w", name, err)
}

// chainCertName names a CA on a path Verify built, with its CN: a trusted root
// first, since the anchor is the configured root, never the document's copy
// of it (cabundle[0]), then the certificate's place in the bundle.
func chainCertName(c *x509.Certificate, cabundle []*x509.Certificate, roots []Root) string {
	for _, r := range roots {
		if r.Cert != nil && bytes.Equal(r.Cert.Raw, c.Raw) {
			return fmt.Sprintf("the trusted root %s (%s)", r.sourceName(), clip(c.Subject.CommonName))
		}
	}
	return fmt.Sprintf("%s (%s)", bundleName(c, cabundle), clip(c.Subject.CommonName))
}
