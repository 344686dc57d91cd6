package server

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/vigil-console/vigil/api"
)

// The oauth activity repeats its OIDC token in the intent, which every member
// and the webhook receiver read. Two checks keep a token seen there from
// being worth anything: it must be bound to the request's target key (the
// nonce, as the real service requires), and it is exchanged at most once.

// checkNonce requires the token's nonce claim to be api.OauthNonce of the
// target key exactly as the request sends it: no case folding, since the
// SDKs hash the string they send and the service compares what it received.
func checkNonce(c oidcClaims, targetPublicKey string) error {
	want := api.OauthNonce(targetPublicKey)
	switch {
	case c.Nonce == want:
		return nil
	case c.Nonce == "":
		return fmt.Errorf("has no nonce claim; the token must be issued with nonce %s, the lowercase hex SHA-256 of targetPublicKey as sent, which binds it to that key", want)
	case c.Nonce == api.OauthNonce(strings.ToLower(targetPublicKey)):
		return fmt.Errorf("nonce is the SHA-256 of targetPublicKey in lowercase, but the key was sent as %q; send targetPublicKey exactly as it was hashed for the nonce", targetPublicKey)
	default:
		return fmt.Errorf("nonce %q does not match targetPublicKey: want %s, the lowercase hex SHA-256 of targetPublicKey as sent; ask the provider for a token with that nonce", c.Nonce, want)
	}
}

// tokenExchange is the record of a token already exchanged for an API key.
type tokenExchange struct {
	orgID, activityID, fingerprint string
}

// refusal says why the token cannot be exchanged again, naming the activity
// only to its own organization.
func (u *tokenExchange) refusal(orgID string) error {
	if u.orgID == orgID {
		return fmt.Errorf("has already been exchanged for an API key (activity %s); a token signs in once: get a fresh one from the provider", u.activityID)
	}
	return errors.New("has already been exchanged for an API key; a token signs in once: get a fresh one from the provider")
}

// exchangeOf returns the exchange of the token c, or nil if it has none.
func exchangeOf(ctx context.Context, q querier, c oidcClaims) (*tokenExchange, error) {
	var u tokenExchange
	err := q.QueryRowContext(ctx, `SELECT e.org_id, e.activity_id, COALESCE(a.fingerprint, '')
		FROM oidc_exchanged_tokens e LEFT JOIN activities a ON a.id = e.activity_id WHERE e.token_hash = ?`, c.signedHash).
		Scan(&u.orgID, &u.activityID, &u.fingerprint)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("look up OIDC token exchange: %w", err)
	}
	return &u, nil
}

// recordExchange remembers that activity a exchanged the token c, until the
// token could no longer pass verification anyway (exp plus the leeway), and
// forgets the tokens that have reached that point.
func recordExchange(ctx context.Context, tx *txn, c oidcClaims, a *activity, now time.Time) error {
	if c.signedHash == "" {
		return errors.New("record OIDC token exchange: the token was not verified")
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM oidc_exchanged_tokens WHERE expires_s < ?`, now.Unix()); err != nil {
		return fmt.Errorf("prune exchanged OIDC tokens: %w", err)
	}
	until := numericDate(c.Expiry).Add(oidcLeeway).Unix() + 1
	if _, err := tx.ExecContext(ctx, `INSERT INTO oidc_exchanged_tokens(token_hash, org_id, activity_id, expires_s) VALUES (?, ?, ?, ?)`,
		c.signedHash, a.OrgID, a.ID, until); err != nil {
		return fmt.Errorf("record OIDC token exchange: %w", err)
	}
	return nil
}
