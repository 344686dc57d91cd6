package api

import (
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"
)

// proxyError words a failure on the way through the HTTP proxy the
// environment chose (net/http's "proxyconnect" error): the service's host
// and base_url are not what is wrong, the proxy variables or the proxy are.
// proxy is the proxy's host:port as the transport chose it, or "" when not
// known. Only the proxy's address is shown, never its URL, which may hold a
// password. An https:// proxy that was reached but whose certificate was
// refused is said as such, with the advice for that certificate.
func proxyError(host, proxy string, err error) (error, bool) {
	var opErr *net.OpError
	if !errors.As(err, &opErr) || opErr.Op != "proxyconnect" {
		return nil, false
	}
	var inner *net.OpError
	var dnsErr *net.DNSError
	dialed := errors.As(opErr.Err, &inner)
	unresolved := errors.As(opErr.Err, &dnsErr)
	switch {
	case proxy != "":
		proxy = SanitizeID(ClipBytes(proxy, maxNameLen))
	case dialed && inner.Addr != nil:
		proxy = Sanitize(inner.Addr.String())
	case unresolved:
		proxy = Sanitize(dnsErr.Name)
	default:
		proxy = "set in the environment"
	}
	check := "HTTPS_PROXY/HTTP_PROXY (and their lower-case forms)"
	if what, fix, ok := certCause(check, time.Now(), opErr.Err); ok {
		return &transportError{fmt.Sprintf("the TLS certificate of the HTTP proxy %s is not trusted: it %s; nothing was sent to %s. %s", proxy, what, host, fix), err}, true
	}
	var notTLS tls.RecordHeaderError
	switch {
	case errors.As(opErr.Err, &notTLS):
		return &transportError{fmt.Sprintf("the HTTP proxy %s does not speak TLS; nothing was sent to %s. In %s use http:// for it instead of https://", proxy, host, check), err}, true
	case isTLSHandshakeTimeout(opErr.Err):
		return &transportError{fmt.Sprintf("the TLS handshake with the HTTP proxy %s did not finish in time; nothing was sent to %s. Check %s and that the proxy is up", proxy, host, check), err}, true
	}
	// "unreachable" only for a failed dial: past it the proxy was reached.
	why := "unreachable"
	switch {
	case dialed && inner.Err != nil:
		why = Sanitize(inner.Err.Error())
	case unresolved:
		why = "its name does not resolve"
	case !dialed:
		why = Sanitize(ClipBytes(opErr.Err.Error(), 200))
	}
	return &transportError{fmt.Sprintf("cannot reach the HTTP proxy %s (%s) on the way to %s; check %s, or add %s to NO_PROXY if it needs no proxy", proxy, why, host, check, host), err}, true
}

// untrustedCertError words a certificate refused by the system's checks: a
// private CA, a TLS-inspecting proxy or a self-signed host (the CA advice),
// a host name the certificate is not for, an expired certificate or a wrong
// clock, each with its own advice. vigil has no setting of its own for TLS
// roots (trusted_roots is for boot proofs): Go reads the system's, and
// SSL_CERT_FILE / SSL_CERT_DIR.
func untrustedCertError(host, setting string, err error) (error, bool) {
	what, fix, ok := certCause("the profile's "+setting, time.Now(), err)
	if !ok {
		return nil, false
	}
	return &transportError{fmt.Sprintf("the TLS certificate of %s %s; nothing was sent. %s", host, what, fix), err}, true
}

// proxyAddr is the host:port of the proxy hc's transport chose for req
// (HTTPS_PROXY, say), or "" for none or a transport that does not say. Its
// host only: the proxy URL's user and password are never part of it.
func proxyAddr(hc *http.Client, req *http.Request) string {
	rt := hc.Transport
	if rt == nil {
		rt = http.DefaultTransport
	}
	if typing, ok := rt.(proxyRefusalTyping); ok {
		rt = typing.tr
	}
	tr, ok := rt.(*http.Transport)
	if !ok || tr.Proxy == nil {
		return ""
	}
	u, err := tr.Proxy(req)
	if err != nil || u == nil {
		return ""
	}
	return u.Host
}
