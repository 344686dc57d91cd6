package api

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"strings"
	"time"
)

// certCause words why a TLS certificate was refused (what: "is signed by an
// authority this system does not trust") and what would fix it (fix),
// where check names what chose the address ("the profile's base_url",
// "HTTPS_PROXY"). Each cause has its own advice: trusting a CA cannot fix
// an expired certificate or a wrong clock. Nothing of Go's x509 text is
// shown; the certificate's names and dates are sanitized and bounded. ok is
// false when err is no certificate failure.
func certCause(check string, now time.Time, err error) (what, fix string, ok bool) {
	var verifyErr *tls.CertificateVerificationError
	var unknownCA x509.UnknownAuthorityError
	var badName x509.HostnameError
	var invalid x509.CertificateInvalidError
	trust := "Check " + check + "; a private CA must be in the system's trust store, or in a file named by SSL_CERT_FILE (or a directory named by SSL_CERT_DIR)"
	switch {
	case errors.As(err, &badName):
		return "is for " + certNames(badName.Certificate) + ", not " + SanitizeID(ClipBytes(badName.Host, maxNameLen)),
			"Check " + check + ": the host name must be one the certificate is for", true
	case errors.As(err, &unknownCA):
		return "is signed by an authority this system does not trust", trust, true
	case errors.As(err, &invalid):
		what, fix := invalidCause(invalid, now)
		return what, fix, true
	case errors.As(err, &verifyErr):
		return "could not be verified", trust, true
	}
	return "", "", false
}

// maxNameLen and maxNames bound what a certificate (which the other end
// chose) puts in a message.
const (
	maxNameLen = 80
	maxNames   = 4
)

// certNames lists the names a certificate is for, at most maxNames.
func certNames(c *x509.Certificate) string {
	if c == nil {
		return "other names"
	}
	var names []string
	for _, n := range c.DNSNames {
		names = append(names, SanitizeID(ClipBytes(n, maxNameLen)))
	}
	for _, ip := range c.IPAddresses {
		names = append(names, ip.String())
	}
	switch {
	case len(names) == 0:
		return "no host name (it has no Subject Alternative Name)"
	case len(names) > maxNames:
		return strings.Join(names[:maxNames], ", ") + fmt.Sprintf(" and %d more", len(names)-maxNames)
	}
	return strings.Join(names, ", ")
}

// invalidCause words a certificate that verifies but is not valid: out of
// its dates (an expired certificate, or this machine's clock wrong), or not
// made for this use.
func invalidCause(e x509.CertificateInvalidError, now time.Time) (what, fix string) {
	const day = "2006-01-02 15:04 UTC"
	c := e.Cert
	switch {
	case e.Reason == x509.Expired && c != nil && now.Before(c.NotBefore):
		return fmt.Sprintf("is valid only from %s: this machine's clock is wrong (it reads %s), or the certificate was made with a wrong date", c.NotBefore.UTC().Format(day), now.UTC().Format(day)),
			"Set this machine's clock right, or have the certificate reissued"
	case e.Reason == x509.Expired && c != nil:
		return fmt.Sprintf("expired on %s, or this machine's clock is wrong (it reads %s)", c.NotAfter.UTC().Format(day), now.UTC().Format(day)),
			"Set this machine's clock right, or have the certificate renewed"
	case e.Reason == x509.Expired:
		return "is out of its dates: expired, or this machine's clock is wrong (it reads " + now.UTC().Format(day) + ")",
			"Set this machine's clock right, or have the certificate renewed"
	case e.Reason == x509.IncompatibleUsage:
		return "is not made for a TLS server", "Have the certificate reissued for server use"
	case e.Reason == x509.NotAuthorizedToSign, e.Reason == x509.CANotAuthorizedForThisName,
		e.Reason == x509.CANotAuthorizedForExtKeyUsage, e.Reason == x509.TooManyIntermediates:
		return "is signed by an authority that may not sign it", "Have the certificate reissued by an authority that may"
	}
	return "is not valid (a constraint of its chain is not met)", "Have the certificate reissued"
}
