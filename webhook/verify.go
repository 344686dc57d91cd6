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
	// the future (a replay, or a badly wrong clock).
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
// timestamp fresh, the delivery for organization org. A receiver runs it
// before it reads the body, so that a stranger's request (no headers, a
// stale replay, another organization's delivery) costs it no body read and
// nothing kept. Its errors are VerifyForOrganization's.
func CheckHeaders(org string, h http.Header, now time.Time, maxAge time.Duration) error {
	_, err := checkHeaders(h, now, maxAge, org)
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
	f, err := checkHeaders(h, now, maxAge, org)
	if err != nil {
		return nil, err
	}
	kid, tsText, eventID, orgID, eventType, sig, ts := f.kid, f.tsText, f.eventID, f.orgID, f.eventType, f.sig, f.ts

	pub, err := keys.Key(ctx, kid)
	if err != nil {
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
// well formed, fresh, and for org when org is set.
func checkHeaders(h http.Header, now time.Time, maxAge time.Duration, org string) (headerFields, error) {
	if maxAge <= 0 {
		maxAge = DefaultMaxAge
	}
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

	// Freshness first: a replay is refused without any key lookup, so old
	// deliveries cannot be used to make the receiver refetch keys.
	ts := time.UnixMilli(ms)
	if age := now.Sub(ts); age > maxAge {
		return headerFields{}, fmt.Errorf("%w: signed %s ago, more than the accepted %s; check the receiver's clock if this repeats", ErrStale, age.Round(time.Second), maxAge)
	}
	if ahead := ts.Sub(now); ahead > MaxClockSkew {
		return headerFields{}, fmt.Errorf("%w: timestamp is %s in the future, more than the accepted %s; check the receiver's clock", ErrStale, ahead.Round(time.Second), MaxClockSkew)
	}

	// Another organization's delivery is refused before any key lookup. The
	// header is not signed: verify holds the signed body to it.
	if org != "" && orgID != org {
		return headerFields{}, fmt.Errorf("%w: event %s is for organization %s, not %s", ErrOtherOrganization, eventID, quote(orgID), quote(org))
	}

	return headerFields{kid: kid, tsText: tsText, eventID: eventID, orgID: orgID, eventType: eventType, sig: sig, ts: ts}, nil
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
