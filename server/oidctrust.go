package server

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rsa"
	"crypto/x509"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net/url"
	"strings"
)

// Limits of a trusted issuer's configuration.
const (
	maxTrustedKeys    = 32
	minRSABits        = 2048
	maxRSABits        = 8192
	maxIssuerFieldLen = 512
)

// TrustedIssuer is an OIDC provider an organization accepts oauth tokens
// from, besides the local issuer (LocalOIDCIssuer, trusted by every
// organization). A token of Issuer must name Audience in its aud claim (a
// string or an array) and be signed ES256 or RS256 by one of Keys.
type TrustedIssuer struct {
	Issuer   string // exactly the tokens' iss, e.g. "https://accounts.example.com"
	Audience string // the client id the provider puts in aud (and azp, if it sets one)
	Keys     []TrustedKey
}

// TrustedKey is one verification key of a trusted issuer.
type TrustedKey struct {
	// KeyID is the kid that selects this key in a token's header. A token
	// with a kid header is checked only against the key with that id; a
	// token without one against every key of the issuer of its algorithm.
	KeyID string
	// Key is an *ecdsa.PublicKey on P-256 (ES256 tokens) or an
	// *rsa.PublicKey of 2048 to 8192 bits (RS256 tokens).
	Key crypto.PublicKey
}

// TrustOIDCIssuer makes organization orgID accept oauth tokens of iss. Calling
// it again for the same issuer replaces its audience and keys (to follow the
// provider's key rotation). Users sign in as the user their (issuer, subject)
// is linked to: see LinkOIDCSubject.
func (s *Server) TrustOIDCIssuer(ctx context.Context, orgID string, iss TrustedIssuer) error {
	rows, err := checkTrustedIssuer(iss)
	if err != nil {
		return fmt.Errorf("trust OIDC issuer: %w", err)
	}
	err = s.db.inTx(ctx, func(tx *txn) error {
		if _, err := loadOrg(ctx, tx, orgID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM oidc_trusted_issuers WHERE org_id = ? AND issuer = ?`, orgID, iss.Issuer); err != nil {
			return err
		}
		now := s.now().UnixNano()
		for _, r := range rows {
			if _, err := tx.ExecContext(ctx, `INSERT INTO oidc_trusted_issuers(org_id, issuer, audience, kid, public_key_pem, created_ns) VALUES (?, ?, ?, ?, ?, ?)`,
				orgID, iss.Issuer, iss.Audience, r.kid, r.pem, now); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("trust OIDC issuer %s for organization %s: %w", iss.Issuer, orgID, err)
	}
	return nil
}

type trustedKeyRow struct{ kid, pem string }

func checkTrustedIssuer(iss TrustedIssuer) ([]trustedKeyRow, error) {
	u, err := url.Parse(iss.Issuer)
	switch {
	case iss.Issuer == LocalOIDCIssuer:
		return nil, fmt.Errorf("%s is the local issuer, which every organization already trusts", LocalOIDCIssuer)
	case err != nil || u.Scheme != "https" || u.Host == "" || len(iss.Issuer) > maxIssuerFieldLen:
		return nil, fmt.Errorf("issuer %q must be an https URL (the exact iss of its tokens) of at most %d bytes", truncateForMessage(iss.Issuer), maxIssuerFieldLen)
	case strings.TrimSpace(iss.Audience) == "" || len(iss.Audience) > maxIssuerFieldLen:
		return nil, fmt.Errorf("issuer %s: audience must be the client id its tokens carry in aud (1 to %d bytes)", iss.Issuer, maxIssuerFieldLen)
	case len(iss.Keys) == 0 || len(iss.Keys) > maxTrustedKeys:
		return nil, fmt.Errorf("issuer %s: give 1 to %d verification keys, not %d", iss.Issuer, maxTrustedKeys, len(iss.Keys))
	}
	seen := map[string]bool{}
	var rows []trustedKeyRow
	for i, k := range iss.Keys {
		if seen[k.KeyID] {
			return nil, fmt.Errorf("issuer %s: key id %q is given twice; each key needs its own id", iss.Issuer, k.KeyID)
		}
		seen[k.KeyID] = true
		if len(k.KeyID) > maxIssuerFieldLen {
			return nil, fmt.Errorf("issuer %s: key %d: key id is longer than %d bytes", iss.Issuer, i, maxIssuerFieldLen)
		}
		if err := checkTrustedKey(k.Key); err != nil {
			return nil, fmt.Errorf("issuer %s: key %d (%q): %w", iss.Issuer, i, k.KeyID, err)
		}
		der, err := x509.MarshalPKIXPublicKey(k.Key)
		if err != nil {
			return nil, fmt.Errorf("issuer %s: key %d: %w", iss.Issuer, i, err)
		}
		rows = append(rows, trustedKeyRow{kid: k.KeyID, pem: string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}))})
	}
	return rows, nil
}

func checkTrustedKey(k crypto.PublicKey) error {
	switch k := k.(type) {
	case *ecdsa.PublicKey:
		if k == nil || k.Curve != elliptic.P256() {
			return errors.New("an ECDSA key must be on P-256 (ES256)")
		}
		if _, err := k.ECDH(); err != nil {
			return errors.New("the ECDSA key is not a valid P-256 point")
		}
	case *rsa.PublicKey:
		if k == nil || k.N == nil || k.N.BitLen() < minRSABits || k.N.BitLen() > maxRSABits {
			return fmt.Errorf("an RSA key must have %d to %d bits (RS256)", minRSABits, maxRSABits)
		}
		if k.E < 3 || k.E%2 == 0 {
			return errors.New("the RSA public exponent must be odd and at least 3")
		}
	default:
		return fmt.Errorf("a %T cannot verify ES256 or RS256; give an *ecdsa.PublicKey (P-256) or an *rsa.PublicKey", k)
	}
	return nil
}

// ParseOIDCJWKS reads the keys of a provider's JWKS document (its jwks_uri):
// "EC" keys on P-256 and "RSA" keys, each with its kid. Entries of other key
// types, or marked for encryption ("use": "enc"), are skipped; a malformed
// signing entry is an error.
func ParseOIDCJWKS(data []byte) ([]TrustedKey, error) {
	var set struct {
		Keys []struct {
			Kty string `json:"kty"`
			Kid string `json:"kid"`
			Use string `json:"use"`
			Crv string `json:"crv"`
			X   string `json:"x"`
			Y   string `json:"y"`
			N   string `json:"n"`
			E   string `json:"e"`
		} `json:"keys"`
	}
	if err := json.Unmarshal(data, &set); err != nil {
		return nil, fmt.Errorf("parse OIDC JWKS: not a JSON key set: %w", err)
	}
	var out []TrustedKey
	b64 := base64.RawURLEncoding
	for i, k := range set.Keys {
		if k.Use == "enc" {
			continue
		}
		switch k.Kty {
		case "EC":
			x, errX := b64.DecodeString(k.X)
			y, errY := b64.DecodeString(k.Y)
			if k.Crv != "P-256" || errX != nil || errY != nil || len(x) != 32 || len(y) != 32 {
				return nil, fmt.Errorf("parse OIDC JWKS: key %d (%q): an EC key needs crv P-256 and 32-byte base64url x and y", i, k.Kid)
			}
			pub, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), append(append([]byte{4}, x...), y...))
			if err != nil {
				return nil, fmt.Errorf("parse OIDC JWKS: key %d (%q): not a P-256 point", i, k.Kid)
			}
			out = append(out, TrustedKey{KeyID: k.Kid, Key: pub})
		case "RSA":
			n, errN := b64.DecodeString(k.N)
			e, errE := b64.DecodeString(k.E)
			if errN != nil || errE != nil || len(e) == 0 || len(e) > 4 {
				return nil, fmt.Errorf("parse OIDC JWKS: key %d (%q): an RSA key needs base64url n and e", i, k.Kid)
			}
			out = append(out, TrustedKey{KeyID: k.Kid, Key: &rsa.PublicKey{N: new(big.Int).SetBytes(n), E: int(new(big.Int).SetBytes(e).Int64())}})
		}
	}
	if len(out) == 0 {
		return nil, errors.New("parse OIDC JWKS: no EC P-256 or RSA signing key in the set")
	}
	return out, nil
}

// LinkOIDCSubject makes tokens of issuer with subject sign in (oauth) as
// userID of organization orgID. issuer must be LocalOIDCIssuer or one the
// organization trusts (TrustOIDCIssuer).
func (s *Server) LinkOIDCSubject(ctx context.Context, orgID, userID, issuer, subject string) error {
	if subject == "" || len(subject) > maxIssuerFieldLen {
		return fmt.Errorf("link OIDC subject: subject must be 1 to %d bytes", maxIssuerFieldLen)
	}
	err := s.db.inTx(ctx, func(tx *txn) error {
		// The organization first: a user "not of this organization" would
		// point at the user when the organization is what is wrong.
		if _, err := loadOrg(ctx, tx, orgID); err != nil {
			return err
		}
		if err := userInOrg(ctx, tx, orgID, userID); err != nil {
			return err
		}
		if issuer != LocalOIDCIssuer {
			var n int
			if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM oidc_trusted_issuers WHERE org_id = ? AND issuer = ?`, orgID, issuer).Scan(&n); err != nil {
				return err
			}
			if n == 0 {
				return fmt.Errorf("%w by organization %s (issuer %q); trust it first with TrustOIDCIssuer", ErrIssuerNotTrusted, orgID, truncateForMessage(issuer))
			}
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO oidc_identities(org_id, issuer, subject, user_id, created_ns) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT(org_id, issuer, subject) DO UPDATE SET user_id = excluded.user_id, created_ns = excluded.created_ns`, orgID, issuer, subject, userID, s.now().UnixNano())
		return err
	})
	if err != nil {
		return fmt.Errorf("link OIDC subject %q of %s: %w", truncateForMessage(subject), issuer, err)
	}
	return nil
}

// ErrIssuerNotTrusted is LinkOIDCSubject's error for an issuer the
// organization does not trust (and that is not LocalOIDCIssuer).
var ErrIssuerNotTrusted = errors.New("OIDC issuer not trusted")

// issuerKey is a verification key of an issuer as oauth uses it.
type issuerKey struct {
	kid string
	pub crypto.PublicKey
}

// issuerKeys returns the audience and keys with which orgID accepts tokens of
// issuer; ok is false if the organization does not trust it.
func (s *Server) issuerKeys(ctx context.Context, q querier, orgID, issuer string) (audience string, keys []issuerKey, ok bool, err error) {
	if issuer == LocalOIDCIssuer {
		return orgID, []issuerKey{{pub: &s.creds.oidcIssuer.PublicKey}}, true, nil
	}
	rows, err := q.QueryContext(ctx, `SELECT audience, kid, public_key_pem FROM oidc_trusted_issuers WHERE org_id = ? AND issuer = ?`, orgID, issuer)
	if err != nil {
		return "", nil, false, fmt.Errorf("read trusted issuers: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var kid, p string
		if err := rows.Scan(&audience, &kid, &p); err != nil {
			return "", nil, false, err
		}
		block, _ := pem.Decode([]byte(p))
		if block == nil {
			return "", nil, false, fmt.Errorf("stored key %q of issuer %s is not PEM", kid, issuer)
		}
		pub, err := x509.ParsePKIXPublicKey(block.Bytes)
		if err != nil {
			return "", nil, false, fmt.Errorf("stored key %q of issuer %s: %w", kid, issuer, err)
		}
		keys = append(keys, issuerKey{kid: kid, pub: pub})
	}
	if err := rows.Err(); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return "", nil, false, err
	}
	return audience, keys, len(keys) > 0, nil
}
