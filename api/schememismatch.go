package api

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"

	"github.com/vigil-console/vigil/profile"
)

// wrongScheme reports an https:// URL aimed at a service that speaks plain
// HTTP (vigil serve, vigil demo): it answered the TLS ClientHello with an
// HTTP reply. The handshake failed on a new connection, before any byte of
// the request was written, so nothing was sent, and asking again gets the
// same answer.
func wrongScheme(err error) bool { return errors.Is(err, http.ErrSchemeMismatch) }

// wrongSchemeError says what to change: the URL's scheme. Plain http:// is
// accepted for this machine; to another host the profile refuses it unless
// allow_plaintext_http is set, which the message says rather than promise.
func wrongSchemeError(host, setting string, err error) error {
	hostname, target := host, host
	if h, _, splitErr := net.SplitHostPort(host); splitErr == nil {
		hostname = h
	} else {
		// No port: an IPv6 literal keeps its brackets in the URL only.
		hostname = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
		target = host + ":443" // https's port, where it answered; http:// alone means 80
	}
	msg := fmt.Sprintf("%s speaks plain HTTP, not HTTPS (as vigil serve and vigil demo do); in the profile's %s use http://%s instead of https://", host, setting, target)
	if profile.IsLoopback(hostname) {
		msg += " (plain http:// is accepted for this machine)"
	} else {
		msg += ", which for a host that is not this machine also needs allow_plaintext_http = true in the profile (requests would cross the network unencrypted), or put the service behind HTTPS"
	}
	return &transportError{msg, err}
}
