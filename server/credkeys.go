package server

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
)

// One public key is one credential in an organization: a passkey's
// credential id is not signed (it only picks the registered row), so a key
// registered twice, as two users' passkeys or as a passkey and an API key,
// would let its one holder vote as two users and meet a quorum alone. Keys
// are stored in the form stamps carry (keys.CanonicalPublicKey), so that
// the compressed and uncompressed forms of one key are one key too.

// authenticatorKey is a passkey's public key as stored, or why it cannot be
// registered.
func authenticatorKey(ctx context.Context, q querier, orgID string, a AuthenticatorSpec) (string, error) {
	pub, err := keys.CanonicalPublicKey(api.CredentialWebAuthnAuthenticator, a.PublicKey)
	if err != nil {
		return "", fmt.Errorf("authenticator %q: %w; register the passkey's P-256 public key as hex SEC1, compressed or uncompressed", a.Name, err)
	}
	var holder string
	err = q.QueryRowContext(ctx, `SELECT u.name FROM authenticators a JOIN users u ON u.id = a.user_id WHERE a.org_id = ? AND a.credential_id = ?`,
		orgID, a.CredentialID).Scan(&holder)
	switch {
	case err == nil:
		return "", fmt.Errorf("authenticator %q: credential id %q is already a passkey of user %q in this organization; a credential id names one passkey", a.Name, truncateForMessage(a.CredentialID), truncateForMessage(holder))
	case !errors.Is(err, sql.ErrNoRows):
		return "", fmt.Errorf("authenticator %q: look up its credential id: %w", a.Name, err)
	}
	if err := keyNotRegistered(ctx, q, orgID, keys.CurveOfCredentialType(api.CredentialWebAuthnAuthenticator), pub); err != nil {
		return "", fmt.Errorf("authenticator %q: %w", a.Name, err)
	}
	return pub, nil
}

// apiKeyPublicKey is an API key's public key as stored, or why it cannot be
// registered.
func apiKeyPublicKey(ctx context.Context, q querier, orgID string, k APIKeySpec, typ string) (string, error) {
	if typ == api.CredentialWebAuthnAuthenticator {
		return "", fmt.Errorf("API key credential type %s is a passkey's, which stamps %s, not %s; register a passkey as UserSpec.Authenticators, or give the key its API key type",
			typ, keys.HeaderStampWebAuthn, keys.HeaderStamp)
	}
	pub, err := keys.CanonicalPublicKey(typ, k.PublicKey)
	if err != nil {
		return "", fmt.Errorf("API key of type %s: %w", typ, err)
	}
	if err := keyNotRegistered(ctx, q, orgID, keys.CurveOfCredentialType(typ), pub); err != nil {
		return "", fmt.Errorf("API key: %w", err)
	}
	return pub, nil
}

// apiKeyCurve is, in SQL over api_keys, the curve of a key's
// credential type (keys.CurveOfCredentialType); the unique index of
// migration 22 is on it, in this very text.
const apiKeyCurve = `CASE credential_type WHEN 'CREDENTIAL_TYPE_API_KEY_SECP256K1' THEN 'secp256k1' WHEN 'CREDENTIAL_TYPE_API_KEY_ED25519' THEN 'ed25519' ELSE 'p256' END`

// keyNotRegistered refuses pub (canonical) on curve when it is already an
// API key or a passkey of a user of orgID. The same bytes on another curve
// are another key (a compressed P-256 key may be a secp256k1 point too):
// their private keys have nothing in common, so one holder cannot vote
// with both, and registering them takes no private key, so refusing them
// would let anyone who saw a key keep it from being registered.
func keyNotRegistered(ctx context.Context, q querier, orgID, curve, pub string) error {
	var kind, holder string
	err := q.QueryRowContext(ctx, `SELECT 'an API key', u.name FROM api_keys k JOIN users u ON u.id = k.user_id WHERE k.org_id = ? AND `+apiKeyCurve+` = ? AND k.public_key = ?
		UNION ALL SELECT 'a passkey', u.name FROM authenticators a JOIN users u ON u.id = a.user_id WHERE a.org_id = ? AND ? = 'p256' AND a.public_key = ?
		LIMIT 1`, orgID, curve, pub, orgID, curve, pub).Scan(&kind, &holder)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil
	case err != nil:
		return fmt.Errorf("look up public key: %w", err)
	}
	return fmt.Errorf("%s public key %s is already %s of user %q in this organization; one key is one credential (registered twice it would vote as two), so use a new key pair",
		curve, truncateForMessage(pub), kind, truncateForMessage(holder))
}
