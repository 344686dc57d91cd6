package server

import (
	"context"
	"crypto/ecdsa"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
)

// LocalOIDCIssuer is the issuer (iss) of the service's own OIDC provider. Every
// organization trusts it, with its organization id as the audience (aud); a
// token's subject (sub) signs in as the user linked to it (UserSpec.OIDCSubject).
const LocalOIDCIssuer = "https://oidc.vigil.local"

const (
	defaultOauthKeySeconds = api.DefaultOauthKeySeconds
	oidcTokenLifetime      = 10 * time.Minute
	oidcLeeway             = 30 * time.Second
)

type oidcClaims struct {
	Issuer   string          `json:"iss"`
	Subject  string          `json:"sub"`
	Audience json.RawMessage `json:"aud"`
	// AuthorizedParty is azp, the client the token was issued to; nil
	// when absent (oidcclaims.go).
	AuthorizedParty *string `json:"azp"`
	Expiry          float64 `json:"exp"` // NumericDate: seconds, possibly fractional
	NotBefore       float64 `json:"nbf"`
	IssuedAt        float64 `json:"iat"`
	Nonce           string  `json:"nonce"` // api.OauthNonce of the target key (oauthbinding.go)

	// signedHash identifies the token for the single-use check: hex SHA-256
	// of its signed part (header.payload). Not of the whole token: an ECDSA
	// signature can be altered and still verify, the signed part cannot.
	signedHash string
}

// MintDemoOIDCToken issues a token of the local OIDC issuer for subject, with
// the organization as audience, valid for 10 minutes, carrying nonce: what a
// login provider would hand a user, for tests and the demo. The oauth
// activity takes it once, as is or base64-encoded, and only with the target
// key the nonce was made from (nonce = api.OauthNonce(targetPublicKey)).
func (s *Server) MintDemoOIDCToken(orgID, subject, nonce string) (string, error) {
	if nonce == "" {
		return "", errors.New("mint OIDC token: a nonce is required: api.OauthNonce of the target key the oauth activity will send")
	}
	return s.mintLocalOIDCToken(orgID, subject, map[string]any{"nonce": nonce})
}

// mintLocalOIDCToken signs a local-issuer token with extra claims added.
func (s *Server) mintLocalOIDCToken(orgID, subject string, extra map[string]any) (string, error) {
	if orgID == "" || subject == "" {
		return "", errors.New("mint OIDC token: organization id and subject are required")
	}
	now := s.now()
	header, _ := json.Marshal(map[string]string{"alg": "ES256", "typ": "JWT"})
	c := map[string]any{"iss": LocalOIDCIssuer, "sub": subject, "aud": orgID,
		"iat": now.Unix(), "exp": now.Add(oidcTokenLifetime).Unix(), "jti": randomHex(16)} // jti: each token is another, to be used once
	for k, v := range extra {
		c[k] = v
	}
	claims, err := json.Marshal(c)
	if err != nil {
		return "", err
	}
	signing := b64url(header) + "." + b64url(claims)
	sum := sha256.Sum256([]byte(signing))
	r, sg, err := ecdsa.Sign(rand.Reader, s.creds.oidcIssuer, sum[:])
	if err != nil {
		return "", fmt.Errorf("mint OIDC token: %w", err)
	}
	sig := make([]byte, 64)
	r.FillBytes(sig[:32])
	sg.FillBytes(sig[32:])
	return signing + "." + b64url(sig), nil
}

func b64url(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }

func decodeAnyBase64(s string) ([]byte, error) {
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil {
			return b, nil
		}
	}
	return nil, errors.New("not base64")
}

// checkTargetKey accepts a P-256 public key as SEC1 hex, uncompressed or
// compressed, parsed as keys.EncryptCredentialBundle will parse it: a key
// that is not a point on the curve is refused here, before any activity
// exists, rather than failing after consensus.
func checkTargetKey(h string) error {
	if _, err := hex.DecodeString(strings.TrimSpace(h)); err != nil {
		return errors.New("is not hex; send the uncompressed P-256 public key as hex")
	}
	if err := keys.CheckBundleTarget(h); err != nil {
		return fmt.Errorf("is not a P-256 public key (%v); send the 65-byte uncompressed key (04 followed by X and Y) as hex", err)
	}
	return nil
}

// executeOauth exchanges the token for a new P-256 API key of the linked user,
// returned encrypted (HPKE) to targetPublicKey.
func (s *Server) executeOauth(ctx context.Context, tx *txn, a *activity, p *api.OauthParams, now time.Time) (*api.OauthResult, error) {
	claims, err := s.verifyOIDCToken(ctx, tx, p.OidcToken, a.OrgID)
	if isTokenRefused(err) {
		return nil, failf(api.CodeUnauthenticated, "oidcToken %v", err)
	}
	if err != nil {
		// The database failing is not the activity's failure: the
		// transaction is undone and the caller told why (asStorageError).
		return nil, fmt.Errorf("verify oidcToken: %w", err)
	}
	if err := checkNonce(claims, p.TargetPublicKey); err != nil {
		return nil, failf(api.CodeInvalidArgument, "oidcToken %v", err)
	}
	// Submission claimed the token for a; an activity submitted before
	// tokens were claimed at submission claims it here, if no other has.
	held, err := claimOf(ctx, tx, claims)
	if err != nil {
		return nil, err
	}
	if held != nil && held.activityID != a.ID {
		return nil, failf(api.CodeUnauthenticated, "oidcToken %v", held.refusal(a.OrgID))
	}
	var userID string
	err = tx.QueryRowContext(ctx, `SELECT user_id FROM oidc_identities WHERE org_id = ? AND issuer = ? AND subject = ?`,
		a.OrgID, claims.Issuer, claims.Subject).Scan(&userID)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, failf(api.CodeNotFound, "no user of this organization is linked to OIDC subject %q of %s", truncateForMessage(claims.Subject), claims.Issuer)
	}
	if err != nil {
		return nil, err
	}
	key, err := keys.Generate(keys.SchemeP256)
	if err != nil {
		return nil, err
	}
	priv, err := hex.DecodeString(key.PrivateKeyHex())
	if err != nil {
		return nil, err
	}
	bundle, err := keys.EncryptCredentialBundle(p.TargetPublicKey, priv)
	if err != nil {
		return nil, failf(api.CodeInvalidArgument, "targetPublicKey: %v", err)
	}
	if p.InvalidateExisting != nil && *p.InvalidateExisting {
		if _, err := tx.ExecContext(ctx, `DELETE FROM api_keys WHERE user_id = ? AND credential_type = ?`, userID, api.CredentialOauthKeyP256); err != nil {
			return nil, err
		}
	}
	name := p.APIKeyName
	if name == "" {
		name = api.DefaultOauthKeyName + now.UTC().Format(time.RFC3339)
	}
	id, err := insertAPIKey(ctx, tx, a.OrgID, userID, APIKeySpec{Name: name, PublicKey: key.PublicKeyHex(),
		CredentialType: api.CredentialOauthKeyP256, ExpirationSeconds: parseSeconds(p.ExpirationSeconds, defaultOauthKeySeconds)}, now.UnixNano())
	if err != nil {
		return nil, err
	}
	if held == nil {
		if err := recordClaim(ctx, tx, claims, a, now); err != nil {
			return nil, err
		}
	}
	return &api.OauthResult{UserID: userID, APIKeyID: id, CredentialBundle: bundle}, nil
}

// sessionLifetime is SPEC.md's read-only session validity.
const sessionLifetime = time.Hour

func (s *Server) createReadOnlySession(ctx context.Context, tx *txn, a *activity, now time.Time) (*api.CreateReadOnlySessionResult, error) {
	o, err := s.org(ctx, tx, a.OrgID)
	if err != nil {
		return nil, err
	}
	requester, err := s.user(ctx, tx, a.RequesterID)
	if isNotFound(err) {
		return nil, failf(api.CodeNotFound, "the requesting user no longer exists")
	}
	if err != nil {
		// A storage error is not the activity's failure: the batch is
		// undone and the caller told, as everywhere else.
		return nil, err
	}
	username := requester.name
	token := randomHex(32)
	sum := sha256.Sum256([]byte(token))
	expiry := now.Add(sessionLifetime)
	if _, err := tx.ExecContext(ctx, `INSERT INTO read_only_sessions(id, org_id, user_id, token_hash, expiry_ns) VALUES (?, ?, ?, ?, ?)`,
		newID(), a.OrgID, a.RequesterID, hex.EncodeToString(sum[:]), expiry.UnixNano()); err != nil {
		return nil, err
	}
	return &api.CreateReadOnlySessionResult{OrganizationID: o.ID, OrganizationName: o.Name, UserID: a.RequesterID,
		Username: username, Session: token, SessionExpiry: fmt.Sprintf("%d", expiry.UTC().Unix())}, nil
}
