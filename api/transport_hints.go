package api

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
)

// proxyError words a failure to reach the HTTP proxy the environment chose
// (net/http's "proxyconnect" error): the service's host and base_url are not
// what is wrong, the proxy variables are. Only the proxy's address is shown,
// never its URL, which may hold a password.
func proxyError(host string, err error) (error, bool) {
	var opErr *net.OpError
	if !errors.As(err, &opErr) || opErr.Op != "proxyconnect" {
		return nil, false
	}
	proxy := "set in the environment"
	var inner *net.OpError
	if errors.As(opErr.Err, &inner) && inner.Addr != nil {
		proxy = Sanitize(inner.Addr.String())
	} else {
		var dnsErr *net.DNSError
		if errors.As(opErr.Err, &dnsErr) {
			proxy = Sanitize(dnsErr.Name)
		}
	}
	why := "unreachable"
	if inner != nil && inner.Err != nil {
		why = Sanitize(inner.Err.Error())
	}
	return &transportError{fmt.Sprintf("cannot reach the HTTP proxy %s (%s) on the way to %s; check HTTPS_PROXY/HTTP_PROXY (and their lower-case forms), or add %s to NO_PROXY if it needs no proxy", proxy, why, host, host), err}, true
}

// untrustedCertError words a certificate the system does not trust: a private
// CA, a TLS-inspecting proxy or a self-signed host. vigil has no setting of
// its own for TLS roots (trusted_roots is for boot proofs): Go reads the
// system's, and SSL_CERT_FILE / SSL_CERT_DIR.
func untrustedCertError(host, setting string, err error) (error, bool) {
	var verifyErr *tls.CertificateVerificationError
	var unknownCA x509.UnknownAuthorityError
	var badName x509.HostnameError
	var invalid x509.CertificateInvalidError
	var what string
	switch {
	case errors.As(err, &badName):
		what = "is not for this host name"
	case errors.As(err, &unknownCA):
		what = "is signed by an authority this system does not trust"
	case errors.As(err, &invalid):
		what = "is not valid (" + Sanitize(invalid.Error()) + ")"
	case errors.As(err, &verifyErr):
		what = "could not be verified"
	default:
		return nil, false
	}
	return &transportError{fmt.Sprintf("the TLS certificate of %s %s; nothing was sent. Check the profile's %s; a private CA must be in the system's trust store, or in a file named by SSL_CERT_FILE (or a directory named by SSL_CERT_DIR)", host, what, setting), err}, true
}
