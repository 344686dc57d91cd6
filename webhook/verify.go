package webhook

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// MaxBodyBytes is the largest delivery body vigil's local service sends
// (docs/webhooks.md): a receiver must read at least this much, or it refuses
// genuine deliveries.
const MaxBodyBytes = 4 << 20

// DefaultMaxAge is how old a delivery's timestamp may be when maxAge is not
// given.
const DefaultMaxAge = 5 * time.Minute

// MaxClockSkew is how far in the future a delivery's timestamp may be, to
// absorb clock differences between the service and the receiver.
const MaxClockSkew = time.Minute

// Reasons a delivery is rejected. Verify wraps one of these with the details;
// test with errors.Is.
var (
	// ErrMalformed: a header is missing, repeated or not in the v1 format.
	ErrMalformed = errors.New("malformed webhook delivery")
	// ErrUnknownKey: the key id is not in the verification key set, even
	// after refetching it. A receiver should answer 503 so that the service
	// retries later.
	ErrUnknownKey = errors.New("unknown webhook signature key id")
	// ErrBadSignature: the signature does not match the delivery as received.
	ErrBadSignature = errors.New("bad webhook signature")
	// ErrStale: the timestamp is older than the accepted age or too far in
	// the future, and the signature verifies or could not be checked
	// without fetching keys (a badly signed one is ErrBadSignature). A
	// genuine delivery outside the window means the service's clock and the
	// receiver's disagree (or it is a replay): a receiver should answer 503,
	// so that the service retries, re-signed at each attempt, and the event
	// arrives once the clocks agree; a replay gains nothing from a 503.
	ErrStale = errors.New("stale webhook delivery")
	// ErrOtherOrganization: the delivery is not for the receiver's
	// organization. Every organization's deliveries are signed with the
	// service's keys, so a genuine delivery of another organization verifies
	// unless its organization is checked.
	ErrOtherOrganization = errors.New("webhook delivery for another organization")
)

// KeySource finds the public key of a key id, such as a JWKSCache. It returns
// an error wrapping ErrUnknownKey when the id is not known.
type KeySource interface {
	Key(ctx context.Context, kid string) (ed25519.PublicKey, error)
}

// HeldKeySource is a KeySource that can give a key it already holds without
// fetching anything (JWKSCache, KeyRing). Verify checks the signature of a
// delivery outside the time window only with such a key, so that a genuine
// one (the clocks disagree) is told from a forged one without letting old
// deliveries make the receiver fetch keys.
type HeldKeySource interface {
	KeySource
	HeldKey(kid string) (ed25519.PublicKey, bool)
}

// Delivery describes a verified delivery. OrganizationID and EventType are
// not covered by the signature; Verify checks the organization id against the
// signed body when the body carries one, VerifyForOrganization always, and
// accepts only EventTypeActivityUpdates as the event type.
type Delivery struct {
	OrganizationID string
	EventID        string // stable across retries: use it to drop duplicates
	EventType      string
	Timestamp      time.Time
	KeyID          string
	// Key is the public key that verified it, published as KeyID then: a
	// receiver keeps it to check the delivery again after the key leaves
	// the published set (PublicJWK writes it as a JWKS entry).
	Key ed25519.PublicKey
}

// Verify checks a delivery's headers and raw body with the keys of keys,
// rejecting timestamps older than maxAge (DefaultMaxAge if maxAge <= 0) or
// more than MaxClockSkew ahead of now. It is VerifyContext without a context.
func Verify(h http.Header, body []byte, keys KeySource, now time.Time, maxAge time.Duration) (*Delivery, error) {
	return VerifyContext(context.Background(), h, body, keys, now, maxAge)
}

// VerifyContext is Verify with a context for the key lookup (which may fetch
// the JWKS). It accepts a genuine delivery of any organization: a receiver
// should use VerifyForOrganization.
func VerifyContext(ctx context.Context, h http.Header, body []byte, keys KeySource, now time.Time, maxAge time.Duration) (*Delivery, error) {
	return verify(ctx, h, body, keys, now, maxAge, "")
}

// VerifyForOrganization is VerifyContext for a receiver of organization org:
// it also refuses (ErrOtherOrganization) a delivery whose signed body's
// organizationId is not org, or that has none. The service signs every
// organization's deliveries with the same keys, so without this check another
// organization's genuine delivery, forwarded to this receiver, verifies.
func VerifyForOrganization(ctx context.Context, org string, h http.Header, body []byte, keys KeySource, now time.Time, maxAge time.Duration) (*Delivery, error) {
	if org == "" {
		return nil, errors.New("verify webhook: no organization id given to check deliveries against")
	}
	return verify(ctx, h, body, keys, now, maxAge, org)
}

// CheckHeaders makes the checks of VerifyForOrganization that need neither
// the body nor a key: every header present once and well formed, the
// delivery for organization org. A receiver runs it before it reads the
// body, so that a stranger's request (no headers, another organization's
// delivery) costs it no body read and nothing kept. It does not check the
// timestamp: whether a delivery outside the window is the service's (a clock
// to fix, answered so that it is retried) or forged takes its body and
// signature. Its errors are VerifyForOrganization's.
func CheckHeaders(org string, h http.Header, now time.Time, maxAge time.Duration) error {
	_, err := checkHeaders(h, org)
	return err
}

// headerFields are a delivery's headers, checked by checkHeaders.
type headerFields struct {
	kid, tsText, eventID, orgID, eventType string
	sig                                    []byte
	ts                                     time.Time
}

// verify checks a delivery; when org is set, it must be for that organization.
func verify(ctx context.Context, h http.Header, body []byte, keys KeySource, now time.Time, maxAge time.Duration, org string) (*Delivery, error) {
	if keys == nil {
		return nil, errors.New("verify webhook: no key source given")
	}
	f, err := checkHeaders(h, org)
	if err != nil {
		return nil, err
	}
	kid, tsText, eventID, orgID, eventType, sig, ts := f.kid, f.tsText, f.eventID, f.orgID, f.eventType, f.sig, f.ts

	// Outside the window, only a key already held is used: a replayed old
	// delivery must not make the receiver fetch keys. The signature is still
	// checked, so that a genuine delivery (the clocks disagree: the service
	// retries it) is told from a forged one (refused for good).
	stale := staleness(ts, now, maxAge)
	var pub ed25519.PublicKey
	if stale != nil {
		held, ok := keys.(HeldKeySource)
		if !ok {
			return nil, fmt.Errorf("%w; its signature was not checked", stale)
		}
		if pub, ok = held.HeldKey(kid); !ok {
			return nil, fmt.Errorf("%w; its signature was not checked: key %s is not held, and a delivery outside the window fetches no keys", stale, quote(kid))
		}
	} else if pub, err = keys.Key(ctx, kid); err != nil {
		return nil, fmt.Errorf("verify webhook %s: %w", eventID, err)
	}
	if len(pub) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("verify webhook %s: key %s is %d bytes, not an Ed25519 public key", eventID, kid, len(pub))
	}
	if err := strongKey(pub); err != nil {
		return nil, fmt.Errorf("verify webhook %s: key %s: %w; pin the key the service publishes (vigil webhook keys)", eventID, kid, err)
	}
	if !ed25519.Verify(pub, signedMessage(kid, tsText, eventID, body), sig) {
		return nil, fmt.Errorf("%w: event %s does not verify with key %s; the body or a signed header was changed, or it was not sent by the service", ErrBadSignature, eventID, kid)
	}
	// The organization id header is not signed: hold it to the signed body.
	bodyOrg, ok := organizationInBody(body)
	if ok && bodyOrg != orgID {
		return nil, fmt.Errorf("%w: %s %s differs from the signed body's organizationId %s", ErrBadSignature, HeaderOrganizationID, quote(orgID), quote(bodyOrg))
	}
	if org != "" && !ok {
		return nil, fmt.Errorf("%w: event %s has no organizationId in its signed body, so it cannot be shown to be for %s", ErrOtherOrganization, eventID, quote(org))
	}
	if stale != nil {
		return nil, fmt.Errorf("%w; its signature verifies: the service's delivery, replayed late or sent while the clocks disagree", stale)
	}
	return &Delivery{
		OrganizationID: orgID,
		EventID:        eventID,
		EventType:      eventType,
		Timestamp:      ts,
		KeyID:          kid,
		Key:            pub,
	}, nil
}

// checkHeaders parses and checks the headers of a delivery: present once,
// well formed, and for org when org is set.
func checkHeaders(h http.Header, org string) (headerFields, error) {
	var vals [8]string
	for i, name := range [...]string{HeaderAlgorithm, HeaderVersion, HeaderKeyID, HeaderTimestamp, HeaderEventID, HeaderSignature, HeaderOrganizationID, HeaderEventType} {
		v, err := single(h, name)
		if err != nil {
			return headerFields{}, err
		}
		vals[i] = v
	}
	alg, version, kid, tsText, eventID, sigHex, orgID, eventType := vals[0], vals[1], vals[2], vals[3], vals[4], vals[5], vals[6], vals[7]

	if alg != Algorithm {
		return headerFields{}, fmt.Errorf("%w: %s is %s; only %q is supported", ErrMalformed, HeaderAlgorithm, quote(alg), Algorithm)
	}
	if version != Version {
		return headerFields{}, fmt.Errorf("%w: %s is %s; only %q is supported", ErrMalformed, HeaderVersion, quote(version), Version)
	}
	if !validID(kid) {
		return headerFields{}, fmt.Errorf("%w: %s %s is not a key id (1..%d of A-Z a-z 0-9 - _ :)", ErrMalformed, HeaderKeyID, quote(kid), maxIDLen)
	}
	if !validID(eventID) {
		return headerFields{}, fmt.Errorf("%w: %s %s is not an event id (1..%d of A-Z a-z 0-9 - _ :)", ErrMalformed, HeaderEventID, quote(eventID), maxIDLen)
	}
	if !validOrgID(orgID) {
		return headerFields{}, fmt.Errorf("%w: %s %s is not an organization id", ErrMalformed, HeaderOrganizationID, quote(orgID))
	}
	// The event type is not signed: a receiver dispatching on it would
	// handle a genuine body as whatever someone on the path renamed it to.
	// Only the one type the service sends is accepted (a second type would
	// need a signature version that covers it).
	if eventType != EventTypeActivityUpdates {
		return headerFields{}, fmt.Errorf("%w: %s is %s; only %q is sent by the service", ErrMalformed, HeaderEventType, quote(eventType), EventTypeActivityUpdates)
	}
	ms, ok := parseMillis(tsText)
	if !ok {
		return headerFields{}, fmt.Errorf("%w: %s %s is not a positive count of milliseconds", ErrMalformed, HeaderTimestamp, quote(tsText))
	}
	if len(sigHex) != 2*ed25519.SignatureSize {
		return headerFields{}, fmt.Errorf("%w: %s is %d characters, want %d hex digits", ErrMalformed, HeaderSignature, len(sigHex), 2*ed25519.SignatureSize)
	}
	sig, err := hex.DecodeString(sigHex)
	if err != nil {
		return headerFields{}, fmt.Errorf("%w: %s is not hex", ErrMalformed, HeaderSignature)
	}

	ts := time.UnixMilli(ms)

	// Another organization's delivery is refused before any key lookup. The
	// header is not signed: verify holds the signed body to it.
	if org != "" && orgID != org {
		return headerFields{}, fmt.Errorf("%w: event %s is for organization %s, not %s", ErrOtherOrganization, eventID, quote(orgID), quote(org))
	}

	return headerFields{kid: kid, tsText: tsText, eventID: eventID, orgID: orgID, eventType: eventType, sig: sig, ts: ts}, nil
}

// staleness is the ErrStale error of a timestamp ts outside the window at
// now (maxAge <= 0: DefaultMaxAge), nil inside it.
func staleness(ts, now time.Time, maxAge time.Duration) error {
	if maxAge <= 0 {
		maxAge = DefaultMaxAge
	}
	if age := now.Sub(ts); age > maxAge {
		return fmt.Errorf("%w: signed %s before this machine's clock reads, more than the accepted %s (if every delivery says this, this machine's clock or the service's is off: fix the clock)", ErrStale, age.Round(time.Second), maxAge)
	}
	if ahead := ts.Sub(now); ahead > MaxClockSkew {
		return fmt.Errorf("%w: timestamp is %s ahead of this machine's clock, more than the accepted %s (this machine's clock or the service's is off: fix the clock)", ErrStale, ahead.Round(time.Second), MaxClockSkew)
	}
	return nil
}

// single returns the one value of a required header.
func single(h http.Header, name string) (string, error) {
	vs := h.Values(name)
	switch len(vs) {
	case 0:
		return "", fmt.Errorf("%w: header %s is missing", ErrMalformed, name)
	case 1:
		return vs[0], nil
	default:
		return "", fmt.Errorf("%w: header %s appears %d times; it must appear once", ErrMalformed, name, len(vs))
	}
}

// parseMillis accepts 1..16 decimal digits and nothing else (no sign, no
// spaces), so that the signed text and the parsed value cannot disagree.
func parseMillis(s string) (int64, bool) {
	if len(s) == 0 || len(s) > 16 {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	ms, err := strconv.ParseInt(s, 10, 64)
	return ms, err == nil && ms > 0
}

// organizationInBody returns the top-level "organizationId" of a JSON object
// body, if it has one.
func organizationInBody(body []byte) (string, bool) {
	var v struct {
		OrganizationID *string `json:"organizationId"`
	}
	if json.Unmarshal(body, &v) != nil || v.OrganizationID == nil {
		return "", false
	}
	return *v.OrganizationID, true
}
