package keys

import (
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// CheckWebAuthnOrigin checks an assertion against an organization's allowed
// origins (scheme://host[:port], each read as a browser serializes it:
// lower case, no default port): the client data's origin must be one of
// them, and the
// authenticatorData's rpIdHash must be SHA-256 of the host of one of them
// (the relying-party id). An assertion made in a cross-origin frame counts
// only if the top-level page's origin is listed too (ErrCrossOrigin). An
// empty list allows nothing. It does not verify the signature: call it on an
// assertion VerifyWebAuthn accepted.
func CheckWebAuthnOrigin(s WebAuthnStamp, allowed []string) error {
	authData, err := decodeB64URL("authenticatorData", s.AuthenticatorData)
	if err != nil {
		return err
	}
	clientData, err := decodeB64URL("clientDataJson", s.ClientDataJSON)
	if err != nil {
		return err
	}
	if len(authData) < 32 {
		return fmt.Errorf("%w: authenticatorData is %d bytes, shorter than the 37 required", ErrMalformedStamp, len(authData))
	}
	cd, err := parseClientData(clientData)
	if err != nil {
		return err
	}
	origin := cd.origin
	list := allowedList(allowed)
	listed := false
	for _, o := range allowed {
		// The client data's origin is compared as sent: a browser always
		// serializes it canonically, so anything else did not come from one.
		listed = listed || canonicalOrigin(o) == origin
	}
	if !listed {
		return fmt.Errorf("%w: the passkey signed at origin %q; the organization allows %s", ErrOriginNotAllowed, truncate(origin), list)
	}
	for _, o := range allowed {
		u, err := url.Parse(canonicalOrigin(o))
		if err != nil || u.Hostname() == "" {
			continue
		}
		want := sha256.Sum256([]byte(u.Hostname()))
		if subtle.ConstantTimeCompare(authData[:32], want[:]) == 1 {
			return checkTopLevel(cd, allowed)
		}
	}
	return fmt.Errorf("%w: the passkey signed at origin %q for a relying party (rpId) other than the host of an allowed origin; the organization allows %s", ErrOriginNotAllowed, truncate(origin), list)
}

// canonicalOrigin is an origin as a browser serializes it: scheme and host
// in lower case, the port as a number and none when it is the default. An origins value the tools accept
// ("https://VIGIL.local", "https://vigil.local:443") names the same origin
// a browser sends as "https://vigil.local"; compared as written, it would
// lock out every passkey of the organization. Text that is not an origin is
// returned unchanged (it matches nothing a browser sends).
func canonicalOrigin(o string) string {
	u, err := url.Parse(o)
	if err != nil || u.Scheme == "" || u.Host == "" || u.User != nil || u.Path != "" || u.RawQuery != "" || u.Fragment != "" {
		return o
	}
	scheme, host, port := strings.ToLower(u.Scheme), strings.ToLower(u.Hostname()), u.Port()
	if n, err := strconv.ParseUint(port, 10, 16); err == nil {
		port = strconv.FormatUint(n, 10) // ":0443" is port 443, as the tools read it
	}
	if (scheme == "https" && port == "443") || (scheme == "http" && port == "80") {
		port = ""
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]" // an IPv6 literal
	}
	if port != "" {
		host += ":" + port
	}
	return scheme + "://" + host
}

// allowedList names the allowed origins for a message, clipped.
func allowedList(allowed []string) string {
	if len(allowed) == 0 {
		return "no origin"
	}
	q := make([]string, 0, min(len(allowed), 8))
	for i, o := range allowed {
		if i == 8 {
			q = append(q, fmt.Sprintf("and %d more", len(allowed)-i))
			break
		}
		q = append(q, fmt.Sprintf("%q", truncate(o)))
	}
	return strings.Join(q, ", ")
}
