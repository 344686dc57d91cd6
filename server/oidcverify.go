package server

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strings"
	"time"
)

// verifyOIDCToken checks an oauth token against the issuers organization
// orgID trusts: the local issuer (ES256, aud = the organization id) and those
// of TrustOIDCIssuer (ES256 or RS256, aud = their audience). The kid header
// selects the key when present. iss, aud, azp (oidcclaims.go), exp, nbf and
// iat are checked, the times with oidcLeeway. alg "none", HMAC algorithms,
// an algorithm that does not match the key's type and a typ header of
// another kind of token (an access token's at+jwt) are refused. SPEC.md calls the token base64-encoded: a
// compact JWT is accepted as is, or base64 (standard or URL) of one. A token
// it does not accept is a *tokenRefusedError; any other error is the
// database's.
func (s *Server) verifyOIDCToken(ctx context.Context, q querier, token, orgID string) (oidcClaims, error) {
	t, err := parseOIDCToken(token)
	if err != nil {
		return t.claims, &tokenRefusedError{err}
	}
	// The issuer names the keys to check against; nothing in the claims is
	// believed until the signature verifies.
	audience, keys, trusted, err := s.issuerKeys(ctx, q, orgID, t.claims.Issuer)
	if err != nil {
		return t.claims, err // the database failing, not the token
	}
	if !trusted {
		return t.claims, &tokenRefusedError{fmt.Errorf("issuer %q is not trusted by this organization", truncateForMessage(t.claims.Issuer))}
	}
	mark, err := prunedThrough(ctx, q)
	if err != nil {
		return t.claims, err
	}
	if err := s.checkOIDCToken(&t, audience, keys, time.Unix(mark, 0)); err != nil {
		return t.claims, &tokenRefusedError{err}
	}
	return t.claims, nil
}

// tokenRefusedError is verifyOIDCToken's answer for a token it does not
// accept: the request's fault. Any other error of it is the service's own
// (reading the trusted issuers failed), never recorded as an oauth
// activity's failure nor reported as a bad token.
type tokenRefusedError struct{ err error }

func (e *tokenRefusedError) Error() string { return e.err.Error() }
func (e *tokenRefusedError) Unwrap() error { return e.err }

// isTokenRefused reports whether err is verifyOIDCToken's refusal of the token.
func isTokenRefused(err error) bool {
	var r *tokenRefusedError
	return errors.As(err, &r)
}

// parsedToken is a compact JWT split and decoded, not yet verified.
type parsedToken struct {
	claims      oidcClaims
	alg         string
	kid         *string
	signed, sig []byte
}

func parseOIDCToken(token string) (parsedToken, error) {
	var t parsedToken
	token = strings.TrimSpace(token)
	if strings.Count(token, ".") != 2 {
		dec, err := decodeAnyBase64(token)
		if err != nil || strings.Count(string(dec), ".") != 2 {
			return t, errors.New("is neither a JWT (header.payload.signature) nor base64 of one")
		}
		token = string(dec)
	}
	parts := strings.Split(token, ".")
	hb, err1 := base64.RawURLEncoding.DecodeString(parts[0])
	cb, err2 := base64.RawURLEncoding.DecodeString(parts[1])
	sig, err3 := base64.RawURLEncoding.DecodeString(parts[2])
	if err := errors.Join(err1, err2, err3); err != nil {
		return t, errors.New("a JWT part is not base64url")
	}
	var h struct {
		Alg  string          `json:"alg"`
		Kid  *string         `json:"kid"`
		Typ  *string         `json:"typ"`
		Crit json.RawMessage `json:"crit"`
	}
	if err := json.Unmarshal(hb, &h); err != nil {
		return t, errors.New("JWT header is not a JSON object with string alg, kid and typ")
	}
	if err := checkAlgorithm(h.Alg); err != nil {
		return t, err
	}
	if err := checkTokenType(h.Typ); err != nil {
		return t, err
	}
	if h.Crit != nil {
		return t, errors.New("JWT header has critical extensions (crit), which are not supported")
	}
	if err := json.Unmarshal(cb, &t.claims); err != nil {
		return t, errors.New("JWT claims are not a JSON object with string iss/sub/azp and numeric exp/nbf/iat")
	}
	t.alg, t.kid, t.signed, t.sig = h.Alg, h.Kid, []byte(parts[0]+"."+parts[1]), sig
	return t, nil
}

// checkOIDCToken verifies t's signature with the issuer's keys, then its
// audience and times; on success it records the signed part's hash in
// t.claims. A token expired by prunedThrough (the latest clock used-token
// records were pruned against) is expired even if the clock has gone back
// since: its record of use may be gone.
func (s *Server) checkOIDCToken(t *parsedToken, audience string, keys []issuerKey, prunedThrough time.Time) error {
	c := &t.claims
	candidates, err := selectKeys(keys, t.alg, t.kid, c.Issuer)
	if err != nil {
		return err
	}
	verified := false
	for _, k := range candidates {
		if err := verifyJWS(t.alg, k.pub, t.signed, t.sig); err == nil {
			verified = true
			break
		} else if len(candidates) == 1 {
			return err
		}
	}
	if !verified {
		return fmt.Errorf("%s signature does not verify with any key this organization trusts for issuer %s (token altered, or signed by another key)", t.alg, c.Issuer)
	}
	signedSum := sha256.Sum256(t.signed)
	c.signedHash = hex.EncodeToString(signedSum[:])
	now := s.now()
	if !c.hasAudience(audience) {
		return fmt.Errorf("audience (aud) does not include %q, the audience this organization expects from %s", audience, c.Issuer)
	}
	if err := c.checkAuthorizedParty(audience); err != nil {
		return err
	}
	switch {
	case c.Expiry <= 0:
		return errors.New("token has no expiry (exp)")
	case !now.Before(numericDate(c.Expiry).Add(oidcLeeway)):
		// The window is [nbf-leeway, exp+leeway): closed at its start, open
		// at its end (RFC 7519 §4.1.4), as an API key ends at its expiry.
		return fmt.Errorf("token has expired (exp %s); sign in again for a fresh token", numericDate(c.Expiry).UTC().Format(time.RFC3339))
	case !numericDate(c.Expiry).Add(oidcLeeway).After(prunedThrough):
		// Not expired by the clock: this service's clock was ahead when it
		// forgot used tokens expiring up to the mark.
		return fmt.Errorf("token (exp %s) expires before %s, and this service has already forgotten which tokens expiring before then "+
			"were used (its clock was ahead when it pruned them), so it cannot accept this one; "+
			"sign in again for a token that expires after %s", numericDate(c.Expiry).UTC().Format(time.RFC3339),
			prunedThrough.UTC().Format(time.RFC3339), prunedThrough.UTC().Format(time.RFC3339))
	case c.NotBefore != 0 && now.Add(oidcLeeway).Before(numericDate(c.NotBefore)):
		return fmt.Errorf("token is not valid yet (nbf %s); check the clocks", numericDate(c.NotBefore).UTC().Format(time.RFC3339))
	case c.IssuedAt != 0 && now.Add(oidcLeeway).Before(numericDate(c.IssuedAt)):
		return fmt.Errorf("token is issued in the future (iat %s); check the clocks", numericDate(c.IssuedAt).UTC().Format(time.RFC3339))
	case c.Subject == "":
		return errors.New("token has no subject (sub)")
	}
	return nil
}

// checkAlgorithm accepts ES256 and RS256 only, naming why others are refused.
func checkAlgorithm(alg string) error {
	switch {
	case alg == "ES256" || alg == "RS256":
		return nil
	case alg == "" || strings.EqualFold(alg, "none"):
		return errors.New(`JWT algorithm "none" (unsigned token) is refused; tokens must be signed ES256 or RS256`)
	case strings.HasPrefix(strings.ToUpper(alg), "HS"):
		return fmt.Errorf("JWT algorithm %q is refused: HMAC tokens are signed with a shared secret, which no issuer shares with this service; tokens must be signed ES256 or RS256", truncateForMessage(alg))
	default:
		return fmt.Errorf("JWT algorithm %q is not accepted; tokens must be signed ES256 or RS256", truncateForMessage(alg))
	}
}

// selectKeys returns the keys a token of alg may be checked against: the one
// named by kid (which must suit alg), or without kid every key suiting alg.
func selectKeys(keys []issuerKey, alg string, kid *string, issuer string) ([]issuerKey, error) {
	if kid != nil {
		for _, k := range keys {
			if k.kid == *kid {
				if !keySuits(k.pub, alg) {
					return nil, fmt.Errorf("algorithm mismatch: the token says %s but key %q of issuer %s is %s; refused", alg, *kid, issuer, keyKind(k.pub))
				}
				return []issuerKey{k}, nil
			}
		}
		return nil, fmt.Errorf("key id (kid) %q is not among the keys this organization trusts for issuer %s", truncateForMessage(*kid), issuer)
	}
	var out []issuerKey
	for _, k := range keys {
		if keySuits(k.pub, alg) {
			out = append(out, k)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("algorithm mismatch: the token says %s but this organization trusts no %s key of issuer %s; refused", alg, map[string]string{"ES256": "ECDSA P-256", "RS256": "RSA"}[alg], issuer)
	}
	return out, nil
}

func keySuits(pub crypto.PublicKey, alg string) bool {
	switch pub.(type) {
	case *ecdsa.PublicKey:
		return alg == "ES256"
	case *rsa.PublicKey:
		return alg == "RS256"
	}
	return false
}

func keyKind(pub crypto.PublicKey) string {
	switch pub.(type) {
	case *ecdsa.PublicKey:
		return "an ECDSA P-256 key (ES256)"
	case *rsa.PublicKey:
		return "an RSA key (RS256)"
	}
	return fmt.Sprintf("a %T", pub)
}

// verifyJWS checks a JWS signature: ES256 is r‖s (32 bytes each), RS256 is
// RSASSA-PKCS1-v1_5 with SHA-256 (RFC 7518 §3.3, §3.4).
func verifyJWS(alg string, pub crypto.PublicKey, signed, sig []byte) error {
	sum := sha256.Sum256(signed)
	switch k := pub.(type) {
	case *ecdsa.PublicKey:
		if len(sig) != 64 {
			return fmt.Errorf("ES256 signature is %d bytes, want 64 (r‖s)", len(sig))
		}
		if !ecdsa.Verify(k, sum[:], new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])) {
			return errors.New("ES256 signature does not verify (token altered, or not signed by this organization's trusted issuer key)")
		}
	case *rsa.PublicKey:
		if len(sig) != k.Size() {
			return fmt.Errorf("RS256 signature is %d bytes, want %d for this key", len(sig), k.Size())
		}
		if err := rsa.VerifyPKCS1v15(k, crypto.SHA256, sum[:], sig); err != nil {
			return errors.New("RS256 signature does not verify (token altered, or not signed by this organization's trusted issuer key)")
		}
	default:
		return fmt.Errorf("%s cannot be checked with %s", alg, keyKind(pub))
	}
	return nil
}

// numericDate converts a JWT NumericDate (seconds since the epoch) to a time,
// clamping absurd values instead of overflowing.
func numericDate(sec float64) time.Time {
	const limit = 1 << 40
	sec = math.Max(-limit, math.Min(limit, sec))
	whole, frac := math.Modf(sec)
	return time.Unix(int64(whole), int64(frac*1e9))
}
