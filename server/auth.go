package server

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strings"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
)

// maxClockSkew bounds how far a submit's timestampMs may be from the server clock.
const maxClockSkew = 5 * time.Minute

// stampHeader is a request's credential, parsed but not yet matched to a user.
type stampHeader struct {
	webAuthn     bool
	value        string           // the raw header value (never logged)
	parsed       keys.ParsedStamp // X-Stamp: checked but for its signature
	publicKey    string           // X-Stamp: verified key (verifyBody); lowercase hex
	scheme       string
	signature    string
	credentialID string // X-Stamp-WebAuthn
}

// caller is an authenticated request: who sent it and with which credential.
type caller struct {
	OrgID        string
	UserID       string
	CredentialID string // API key id or authenticator id
	CredType     string
	PublicKey    string
	Scheme       string
	Signature    string
	// PasskeyID is the WebAuthn credential id of a passkey; empty for API keys.
	PasskeyID string
	// passkeyStamp is the verified passkey assertion (nil for API keys), kept
	// so the write transaction can check its origin and relying party again
	// against the organization's origins at that moment.
	passkeyStamp *keys.WebAuthnStamp
}

// parseStampHeaders checks that exactly one credential header is present and
// that it is well formed: all that needs no body, so that a request refused
// for its credential alone is refused before its body is buffered. An
// X-Stamp's signature is then checked by verifyBody, a passkey's by
// authenticate.
func (s *Server) parseStampHeaders(h http.Header) (stampHeader, error) {
	// Count header lines, not values: a second credential, even an empty one,
	// would leave it to the reader which one counts.
	nStamp, nWebAuthn := len(h.Values(keys.HeaderStamp)), len(h.Values(keys.HeaderStampWebAuthn))
	switch {
	case nStamp == 0 && nWebAuthn == 0:
		return stampHeader{}, unauthenticatedf("MISSING_STAMP", "missing credential: sign the request body and send it as %s (API key) or %s (passkey)", keys.HeaderStamp, keys.HeaderStampWebAuthn)
	case nStamp > 0 && nWebAuthn > 0:
		return stampHeader{}, unauthenticatedf("AMBIGUOUS_STAMP", "send either %s or %s, not both: a request carries exactly one credential", keys.HeaderStamp, keys.HeaderStampWebAuthn)
	case nStamp > 1 || nWebAuthn > 1:
		name := keys.HeaderStamp
		if nWebAuthn > 1 {
			name = keys.HeaderStampWebAuthn
		}
		return stampHeader{}, unauthenticatedf("AMBIGUOUS_STAMP", "%s is sent %d times; a request carries exactly one credential header", name, max(nStamp, nWebAuthn))
	}
	xs, wa := h.Get(keys.HeaderStamp), h.Get(keys.HeaderStampWebAuthn)
	switch {
	case xs == "" && wa == "":
		return stampHeader{}, unauthenticatedf("MISSING_STAMP", "the credential header is empty: sign the request body and send it as %s (API key) or %s (passkey)", keys.HeaderStamp, keys.HeaderStampWebAuthn)
	case xs != "":
		p, err := s.verifier.Parse(xs)
		if err != nil {
			return stampHeader{}, unusableStamp(err)
		}
		return stampHeader{value: xs, parsed: p}, nil
	default:
		// The same strict reader as the verification later: one way to read it.
		head, err := keys.ParseWebAuthnStamp(wa)
		if err != nil {
			return stampHeader{}, badPasskeyStamp(err)
		}
		return stampHeader{webAuthn: true, value: wa, credentialID: head.CredentialID, signature: head.Signature, scheme: keys.SchemeWebAuthn}, nil
	}
}

// verifyBody checks an X-Stamp's signature over the body; a passkey's is
// checked against its registered key by authenticate.
func (st *stampHeader) verifyBody(body []byte) error {
	if st.webAuthn {
		return nil
	}
	v, err := st.parsed.Verify(body)
	if err != nil {
		return stampError(err)
	}
	st.publicKey, st.scheme, st.signature = strings.ToLower(v.PublicKey), v.Scheme, v.Signature
	return nil
}

// stampError is the reply to an X-Stamp whose signature does not verify
// over the body.
func stampError(err error) error {
	return unauthenticatedf("INVALID_STAMP", "%s does not verify over this request body: %v", keys.HeaderStamp, err)
}

// unusableStamp is the reply to an X-Stamp refused before the body is read
// (its encoding, scheme, key or signature encoding): saying it does not
// verify over the body would send the user looking at the wrong bytes.
func unusableStamp(err error) error {
	return unauthenticatedf("INVALID_STAMP", "%s is refused before its signature is checked: %v", keys.HeaderStamp, err)
}

// authenticate matches the credential to a key or authenticator registered to a
// user of orgID.
func (s *Server) authenticate(ctx context.Context, st stampHeader, body []byte, orgID string) (*caller, error) {
	if st.webAuthn {
		return s.authenticateWebAuthn(ctx, st, body, orgID)
	}
	ks, err := s.apiKeys(ctx, st.publicKey)
	if err != nil {
		return nil, err
	}
	foreign := false
	var otherCurve *apiKeyEntry
	for _, k := range ks {
		if k.org != orgID {
			foreign = true
			continue
		}
		// A compressed point may be on both P-256 and secp256k1, and its
		// bytes registered once per curve, as two keys: the one meant is
		// the one of the stamp's curve, which policies and votes show.
		if keys.SchemeOfCredentialType(k.typ) != st.scheme {
			otherCurve = &k
			continue
		}
		if s.expired(k) {
			return nil, keyExpired(k)
		}
		st.parsed.Admitted() // a key the service knows: its signatures may earn a table
		return &caller{OrgID: k.org, UserID: k.user, CredentialID: k.id, CredType: k.typ,
			PublicKey: st.publicKey, Scheme: st.scheme, Signature: st.signature}, nil
	}
	if k := otherCurve; k != nil {
		return nil, unauthenticatedf("INVALID_STAMP", "API key %s is registered as %s, which stamps with scheme %s, but this stamp's scheme is %s; stamp with the key's own curve, or register the key with the credential type of its curve",
			k.id, k.typ, keys.SchemeOfCredentialType(k.typ), st.scheme)
	}
	if foreign {
		return nil, forbiddenf("FOREIGN_ORGANIZATION", "the stamping key belongs to a user of another organization, not %q; use a key of that organization or fix organizationId", orgID)
	}
	return nil, unknownKey(st.publicKey, orgID)
}

func unknownKey(publicKey, orgID string) error {
	return unauthenticatedf("UNKNOWN_KEY", "the stamping public key %s is not a registered API key of organization %q", publicKey, orgID)
}

func keyExpired(k apiKeyEntry) error {
	expiry, _ := k.expiry()
	return unauthenticatedf("API_KEY_EXPIRED", "API key %s expired at %s; create a new key (for example with the oauth activity)", k.id, expiry.UTC().Format(time.RFC3339))
}

// stillAuthenticated checks again, inside the write transaction and at its
// reading of the clock, that the credential authenticate accepted is still
// registered and unexpired and, for a passkey, that the organization still
// allows the origin it signed at. A request may wait behind the writer while
// a deletion of its key or a restriction of FEATURE_NAME_WEBAUTHN_ORIGINS
// commits (or its lifetime ends); either revokes at once, so such a request
// is refused as a new one would be. Primary-key reads only (one for an API
// key, two for a passkey): they see what earlier jobs of the same batch
// wrote, and run again if the batch is rerun. submit also runs it on the
// read connection before its other checks, so that a request whose key is
// gone is told so rather than what those checks find.
func stillAuthenticated(ctx context.Context, tx querier, c *caller, now time.Time) error {
	if c.PasskeyID != "" {
		var one int
		err := tx.QueryRowContext(ctx, `SELECT 1 FROM authenticators WHERE id = ? AND org_id = ? AND user_id = ?`,
			c.CredentialID, c.OrgID, c.UserID).Scan(&one)
		if errors.Is(err, sql.ErrNoRows) {
			return unknownAuthenticator(c.PasskeyID, c.OrgID)
		}
		if err != nil {
			return err
		}
		if c.passkeyStamp == nil {
			// Fail closed: a passkey caller whose assertion was not kept
			// cannot be checked against the origins.
			return fmt.Errorf("passkey caller %s has no stamp to re-check its origin", c.CredentialID)
		}
		return checkPasskeyOrigin(ctx, tx, *c.passkeyStamp, c.OrgID)
	}
	k := apiKeyEntry{id: c.CredentialID, org: c.OrgID, user: c.UserID}
	err := tx.QueryRowContext(ctx, `SELECT expiration_seconds, created_ns FROM api_keys WHERE id = ? AND org_id = ? AND user_id = ?`,
		c.CredentialID, c.OrgID, c.UserID).Scan(&k.exp, &k.created)
	if errors.Is(err, sql.ErrNoRows) {
		return unknownKey(c.PublicKey, c.OrgID)
	}
	if err != nil {
		return err
	}
	if expiry, ok := k.expiry(); ok && !now.Before(expiry) {
		return keyExpired(k)
	}
	return nil
}

// expiry is when the key stops authenticating, if it has a lifetime: from
// then on a request stamped by it is refused as expired.
func (k apiKeyEntry) expiry() (time.Time, bool) {
	// A lifetime too long for a time.Duration never ends in practice.
	if k.exp <= 0 || k.exp >= math.MaxInt64/int64(time.Second) {
		return time.Time{}, false
	}
	return time.Unix(0, k.created).Add(time.Duration(k.exp) * time.Second), true
}

// expired reports whether authenticate refuses k as expired now.
func (s *Server) expired(k apiKeyEntry) bool {
	expiry, ok := k.expiry()
	return ok && !s.now().Before(expiry)
}

func (s *Server) authenticateWebAuthn(ctx context.Context, st stampHeader, body []byte, orgID string) (*caller, error) {
	ws, err := keys.ParseWebAuthnStamp(st.value)
	if err != nil {
		return nil, badPasskeyStamp(err)
	}
	// What needs no registered key (challenge, type, user presence) is
	// checked first and told as is: its verdict is the same for a credential
	// id registered or not.
	if err := keys.CheckWebAuthnAssertion(ws, body); err != nil {
		return nil, badPasskeyStamp(err)
	}
	var id, org, user, pub string
	err = s.db.read.QueryRowContext(ctx, `SELECT id, org_id, user_id, public_key FROM authenticators
		WHERE credential_id = ? ORDER BY org_id = ? DESC LIMIT 1`, st.credentialID, orgID).Scan(&id, &org, &user, &pub)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, unknownAuthenticator(st.credentialID, orgID)
	}
	if err != nil {
		return nil, err
	}
	if err := keys.VerifyWebAuthn(ws, body, pub); err != nil {
		// The same refusal as an unknown credential id: a different one
		// would tell anyone without a passkey which ids are registered.
		return nil, unknownAuthenticator(st.credentialID, orgID)
	}
	if org != orgID {
		return nil, forbiddenf("FOREIGN_ORGANIZATION", "the passkey belongs to a user of another organization, not %q", orgID)
	}
	if err := checkPasskeyOrigin(ctx, s.db.read, ws, orgID); err != nil {
		return nil, err
	}
	return &caller{OrgID: org, UserID: user, CredentialID: id, CredType: keys.CredentialWebAuthnAuthenticator,
		PublicKey: pub, Scheme: st.scheme, Signature: st.signature, PasskeyID: st.credentialID, passkeyStamp: &ws}, nil
}

// checkPasskeyOrigin enforces the organization's FEATURE_NAME_WEBAUTHN_ORIGINS:
// when it is set, a passkey stamp counts only if made at one of its origins
// and for the relying party of one (keys.CheckWebAuthnOrigin). A value that
// lists no usable origin allows none: the setting fails closed. Unset, any
// origin is accepted, but not in a cross-origin frame (docs/local-service.md). q is the read pool when a
// request is authenticated and the write transaction when it is recorded.
func checkPasskeyOrigin(ctx context.Context, q querier, ws keys.WebAuthnStamp, orgID string) error {
	var value string
	err := q.QueryRowContext(ctx, `SELECT value FROM features WHERE org_id = ? AND name = ?`, orgID, api.FeatureWebauthnOrigins).Scan(&value)
	if errors.Is(err, sql.ErrNoRows) {
		// Any origin, but at the top level: no page is listed to embed one.
		if err := keys.CheckWebAuthnTopLevel(ws); err != nil {
			return crossOriginRefused(err)
		}
		return nil
	}
	if err != nil {
		return fmt.Errorf("read %s: %w", api.FeatureWebauthnOrigins, err)
	}
	var allowed []string
	for o := range strings.SplitSeq(value, ",") {
		if o = strings.TrimSpace(o); o != "" {
			allowed = append(allowed, o)
		}
	}
	if err := keys.CheckWebAuthnOrigin(ws, allowed); err != nil {
		if errors.Is(err, keys.ErrCrossOrigin) {
			return crossOriginRefused(err)
		}
		return unauthenticatedf("INVALID_STAMP", "%s: %v; sign at an allowed origin, or have the root quorum add this one to %s", keys.HeaderStampWebAuthn, err, api.FeatureWebauthnOrigins)
	}
	return nil
}

// crossOriginRefused is the reply to a passkey stamp made in a frame of
// another site's page: a site embedding the relying party's page could have
// its users sign there.
func crossOriginRefused(err error) error {
	return unauthenticatedf("INVALID_STAMP", "%s: %v; sign in a top-level page of the relying party, or, to let that page embed the ceremony, have the root quorum list its origin (with every origin passkeys sign at) in %s",
		keys.HeaderStampWebAuthn, err, api.FeatureWebauthnOrigins)
}

// badPasskeyStamp is the reply to an X-Stamp-WebAuthn that is malformed or
// fails a check that needs no registered key. Only a challenge that is not
// this body's says the body is the problem; any other is the stamp's own
// (its encoding, type, user presence), as unusableStamp says of an X-Stamp.
func badPasskeyStamp(err error) error {
	if errors.Is(err, keys.ErrChallengeMismatch) {
		return unauthenticatedf("INVALID_STAMP", "%s does not verify over this request body: %v", keys.HeaderStampWebAuthn, err)
	}
	return unauthenticatedf("INVALID_STAMP", "%s is refused before its signature is checked: %v", keys.HeaderStampWebAuthn, err)
}

func unknownAuthenticator(credentialID, orgID string) error {
	return unauthenticatedf("UNKNOWN_AUTHENTICATOR", "passkey credential %q is not registered with organization %q, or its signature does not verify with the registered passkey;"+
		" sign with a passkey registered to your user in this organization (get_user lists them)", truncateForMessage(credentialID), orgID)
}

// checkTimestamp refuses a submit whose timestampMs is not within ±5 minutes of
// the server clock, which bounds how long a captured request can be replayed.
func (s *Server) checkTimestamp(ts string) error {
	if ts == "" {
		return invalidf("MISSING_FIELD", "timestampMs is required (the request time in epoch milliseconds, as a string)")
	}
	ms, err := api.ParseDecimal(ts)
	if err != nil {
		return invalidf("INVALID_FIELD", "timestampMs %q is not a number of epoch milliseconds", ts)
	}
	skew := s.now().Sub(time.UnixMilli(ms))
	if skew > maxClockSkew || skew < -maxClockSkew {
		return unauthenticatedf("STALE_TIMESTAMP", "timestampMs is %s away from the server clock (limit ±%s); check your clock and send a fresh request", skew.Round(time.Second).Abs(), maxClockSkew)
	}
	return nil
}
