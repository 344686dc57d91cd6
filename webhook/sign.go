// Package webhook signs webhook deliveries, verifies them, publishes and caches
// the verification keys (JWKS) and delivers events with retries.
//
// The wire format is DESIGN.md §3 "Webhooks": every delivery carries
// X-Service-Signature, an Ed25519 signature (hex) over
//
//	"v1.ed25519." + keyId + "." + timestampMs + "." + eventId + "." + body
//
// made with the key named by X-Service-Signature-Key-Id, whose public half is
// published in the service's JWKS.
package webhook

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// Delivery headers.
const (
	HeaderOrganizationID = "X-Service-Organization-Id"
	HeaderEventType      = "X-Service-Event-Type"
	HeaderTimestamp      = "X-Service-Timestamp"
	HeaderEventID        = "X-Service-Event-Id"
	HeaderKeyID          = "X-Service-Signature-Key-Id"
	HeaderAlgorithm      = "X-Service-Signature-Algorithm"
	HeaderVersion        = "X-Service-Signature-Version"
	HeaderSignature      = "X-Service-Signature"
)

// Values of the signature contract.
const (
	// EventTypeActivityUpdates is the only event type: an activity changed.
	EventTypeActivityUpdates = "ACTIVITY_UPDATES"
	// Algorithm is the value of X-Service-Signature-Algorithm and of a JWK's
	// service_signature_algorithm.
	Algorithm = "ed25519"
	// Version is the value of X-Service-Signature-Version and of a JWK's
	// service_signature_version.
	Version = "v1"
)

// maxIDLen bounds key ids, event ids and organization ids.
const maxIDLen = 128

// validID reports whether s may be a key id or an event id. Both are part of
// the signed message and separated there by '.', so '.' (and anything that is
// not a plain token character) is refused: otherwise bytes could be shifted
// between the event id and the body without changing the signed message.
func validID(s string) bool {
	if len(s) == 0 || len(s) > maxIDLen {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case c == '-', c == '_', c == ':':
		default:
			return false
		}
	}
	return true
}

// validOrgID reports whether s may be sent as X-Service-Organization-Id:
// printable ASCII without spaces, so that it is safe in a header and a log.
func validOrgID(s string) bool {
	if len(s) == 0 || len(s) > maxIDLen {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] <= ' ' || s[i] > '~' {
			return false
		}
	}
	return true
}

// signedMessage builds the exact bytes that are signed.
func signedMessage(keyID, timestampMs, eventID string, body []byte) []byte {
	var b bytes.Buffer
	b.Grow(len("v1.ed25519....") + len(keyID) + len(timestampMs) + len(eventID) + len(body))
	b.WriteString(Version)
	b.WriteByte('.')
	b.WriteString(Algorithm)
	b.WriteByte('.')
	b.WriteString(keyID)
	b.WriteByte('.')
	b.WriteString(timestampMs)
	b.WriteByte('.')
	b.WriteString(eventID)
	b.WriteByte('.')
	b.Write(body)
	return b.Bytes()
}

// signWith returns the delivery headers for body, signed by priv under keyID.
func signWith(keyID string, priv ed25519.PrivateKey, orgID, eventID string, ts time.Time, body []byte) (http.Header, error) {
	if !validOrgID(orgID) {
		return nil, fmt.Errorf("sign webhook: organization id %s is not 1..%d printable ASCII characters without spaces", quote(orgID), maxIDLen)
	}
	if !validID(eventID) {
		return nil, fmt.Errorf("sign webhook: event id %s must be 1..%d characters, each one of A-Z a-z 0-9 - _ or a colon", quote(eventID), maxIDLen)
	}
	ms := ts.UnixMilli()
	if ms <= 0 {
		return nil, fmt.Errorf("sign webhook: timestamp %s is not after 1970", ts.UTC().Format(time.RFC3339))
	}
	tsText := strconv.FormatInt(ms, 10)
	sig := ed25519.Sign(priv, signedMessage(keyID, tsText, eventID, body))

	h := make(http.Header, 8)
	h.Set(HeaderOrganizationID, orgID)
	h.Set(HeaderEventType, EventTypeActivityUpdates)
	h.Set(HeaderTimestamp, tsText)
	h.Set(HeaderEventID, eventID)
	h.Set(HeaderKeyID, keyID)
	h.Set(HeaderAlgorithm, Algorithm)
	h.Set(HeaderVersion, Version)
	h.Set(HeaderSignature, hex.EncodeToString(sig))
	return h, nil
}

// quote renders an untrusted string for an error message: ASCII only, control
// and bidi characters escaped, at most 64 bytes of the input.
func quote(s string) string {
	const max = 64
	if len(s) > max {
		return strconv.QuoteToASCII(s[:max]) + "..."
	}
	return strconv.QuoteToASCII(s)
}
