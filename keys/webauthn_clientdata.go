package keys

import (
	"bytes"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// ErrCrossOrigin: the assertion was made in a frame whose origin differs
// from the top-level page's (clientDataJSON crossOrigin true, or a
// topOrigin), so the relying party's own page did not host the ceremony.
var ErrCrossOrigin = errors.New("WebAuthn assertion made in a cross-origin frame")

// clientData is the part of a WebAuthn clientDataJSON the service reads.
type clientData struct {
	typ, challenge, origin string
	crossOrigin            bool
	topOrigin              string
	hasTopOrigin           bool
}

// embedded reports whether the ceremony ran in a cross-origin frame: a
// browser sets topOrigin only then (WebAuthn Level 3 §5.8.1).
func (c clientData) embedded() bool { return c.crossOrigin || c.hasTopOrigin }

// clientDataMembers are the members read, each with the JSON kind it must
// have. They are matched case-sensitively and may appear once each: another
// parser reading a duplicate or a differently-cased name otherwise could
// take a different value than the one checked here.
var clientDataMembers = []string{"type", "challenge", "origin", "crossOrigin", "topOrigin"}

// parseClientData reads clientDataJSON strictly: a UTF-8 JSON object with
// "type", "challenge" and "origin" strings, an optional "crossOrigin"
// boolean and "topOrigin" string, each at most once and spelt exactly so;
// other members (browsers add some, and invite more) are skipped.
func parseClientData(raw []byte) (clientData, error) {
	var c clientData
	bad := func(format string, args ...any) (clientData, error) {
		return clientData{}, fmt.Errorf("%w: clientDataJson "+format, append([]any{ErrMalformedStamp}, args...)...)
	}
	if !utf8.Valid(raw) {
		return bad("is not UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return bad("is not a JSON object")
	}
	seen := make(map[string]bool, len(clientDataMembers))
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return bad("is not valid JSON: %v", err)
		}
		name, _ := tok.(string)
		known := false
		for _, m := range clientDataMembers {
			if name == m {
				known = true
			} else if strings.EqualFold(name, m) {
				return bad("has a member %q; member names are case-sensitive and a browser sends %q", truncate(name), m)
			}
		}
		if !known {
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return bad("is not valid JSON: %v", err)
			}
			continue
		}
		if seen[name] {
			return bad("has %q twice; a browser sends each member once, and which one counts would be up to the reader", name)
		}
		seen[name] = true
		tok, err = dec.Token()
		if err != nil {
			return bad("is not valid JSON: %v", err)
		}
		if name == "crossOrigin" {
			b, ok := tok.(bool)
			if !ok {
				return bad("crossOrigin is not a boolean")
			}
			c.crossOrigin = b
			continue
		}
		s, ok := tok.(string)
		if !ok {
			return bad("%s is not a string", name)
		}
		switch name {
		case "type":
			c.typ = s
		case "challenge":
			c.challenge = s
		case "origin":
			c.origin = s
		case "topOrigin":
			c.topOrigin, c.hasTopOrigin = s, true
		}
	}
	if _, err := dec.Token(); err != nil {
		return bad("is not valid JSON: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return bad("has data after the JSON object")
	}
	for _, m := range []string{"type", "challenge", "origin"} {
		if !seen[m] {
			return bad("has no %q", m)
		}
	}
	return c, nil
}

// checkChallenge compares the client data's challenge with body's as a
// browser writes it: base64url without padding, one text for one challenge.
// A padded or otherwise differently written challenge came from no browser.
// Two challenges stand for a body: the official stampers first signed the
// lowercase hex of its SHA-256 (DESIGN.md) and later the 32 digest bytes
// themselves; both bind the same body (64 bytes against 32, so one form
// can never be read as the other's), so both are accepted.
func checkChallenge(got string, body []byte) error {
	if strings.Contains(got, "=") {
		return fmt.Errorf("%w: clientDataJson challenge has padding '='; browsers send base64url without padding", ErrMalformedStamp)
	}
	digest := sha256.Sum256(body)
	for _, c := range [][]byte{webAuthnChallenge(body), digest[:]} {
		want := base64.RawURLEncoding.EncodeToString(c)
		if subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1 {
			return nil
		}
	}
	if _, err := base64.RawURLEncoding.Strict().DecodeString(got); err != nil {
		return fmt.Errorf("%w: clientDataJson challenge is not base64url without padding", ErrMalformedStamp)
	}
	return fmt.Errorf("%w: the challenge must be the base64url (unpadded) of the SHA-256 of the exact %d-byte body, as its lowercase hex or its 32 bytes", ErrChallengeMismatch, len(body))
}

// checkTopLevel refuses an assertion made in a cross-origin frame unless the
// organization lists the top-level page's origin among allowed: listing it
// is how an organization agrees to be embedded there.
func checkTopLevel(c clientData, allowed []string) error {
	if !c.embedded() {
		return nil
	}
	if !c.hasTopOrigin {
		return fmt.Errorf("%w: the passkey signed at %q inside a frame of another origin (crossOrigin true), and the browser did not say which; the relying party's page did not host the ceremony",
			ErrCrossOrigin, truncate(c.origin))
	}
	for _, o := range allowed {
		if canonicalOrigin(o) == c.topOrigin {
			return nil
		}
	}
	if len(allowed) == 0 {
		return fmt.Errorf("%w: the passkey signed at %q inside a frame of the page %q (top-level origin); the relying party's page did not host the ceremony",
			ErrCrossOrigin, truncate(c.origin), truncate(c.topOrigin))
	}
	return fmt.Errorf("%w: the passkey signed at %q inside a frame of the page %q (top-level origin), which the organization does not list (it allows %s); the relying party's page did not host the ceremony",
		ErrCrossOrigin, truncate(c.origin), truncate(c.topOrigin), allowedList(allowed))
}

// CheckWebAuthnTopLevel refuses an assertion made in a cross-origin frame:
// for an organization that lists no origins, so none to be embedded in.
func CheckWebAuthnTopLevel(s WebAuthnStamp) error {
	raw, err := decodeB64URL("clientDataJson", s.ClientDataJSON)
	if err != nil {
		return err
	}
	c, err := parseClientData(raw)
	if err != nil {
		return err
	}
	return checkTopLevel(c, nil)
}
