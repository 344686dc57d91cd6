package server

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/vigil-console/vigil/api"
)

// The oauth activity repeats its OIDC token in the intent, which every member
// and the webhook receiver read. Two checks keep a token seen there from
// being worth anything: it must be bound to the request's target key (the
// nonce, as the real service requires), and it is claimed by the first
// activity that carries it, at submission: no other activity can carry it
// afterwards, so a member who copies it from a pending intent cannot race
// the owner's activity (nor delete the owner's keys with invalidateExisting).
// The claim is never released: an OIDC token is used once, even when the
// activity holding it is rejected or fails; the owner gets a fresh one.

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
		return fmt.Errorf("nonce is the SHA-256 of targetPublicKey in lowercase, but the key was sent as %q; send targetPublicKey exactly as it was hashed for the nonce", truncateForMessage(targetPublicKey))
	default:
		return fmt.Errorf("nonce %q does not match targetPublicKey: want %s, the lowercase hex SHA-256 of targetPublicKey as sent; ask the provider for a token with that nonce", truncateForMessage(c.Nonce), want)
	}
}

// tokenClaim is the activity that holds a token (oidc_exchanged_tokens:
// since tokens are claimed at submission, a row is a claim, made by an
// activity that may still wait for approval, have exchanged the token, or
// have been rejected or failed).
type tokenClaim struct {
	orgID, activityID, fingerprint, status string
}

// refusal says why the token cannot be used again, naming the activity only
// to its own organization.
func (u *tokenClaim) refusal(orgID string) error {
	if u.orgID != orgID {
		return errors.New("has already been used to sign in; a token is used once: get a fresh one from the provider")
	}
	switch u.status {
	case api.StatusConsensusNeeded, api.StatusCreated, api.StatusPending:
		return fmt.Errorf("is already carried by activity %s, which waits for approval; a token is used once: approve or reject that activity, and get a fresh token from the provider to sign in again", u.activityID)
	case api.StatusFailed, api.StatusRejected:
		return fmt.Errorf("was already used by activity %s, which is %s; a token is used once, even when its activity fails or is rejected: get a fresh one from the provider", u.activityID, u.status)
	}
	return fmt.Errorf("has already been exchanged for an API key (activity %s); a token signs in once: get a fresh one from the provider", u.activityID)
}

// claimOf returns the claim on the token c, or nil if it has none.
func claimOf(ctx context.Context, q querier, c oidcClaims) (*tokenClaim, error) {
	var u tokenClaim
	err := q.QueryRowContext(ctx, `SELECT e.org_id, e.activity_id, COALESCE(a.fingerprint, ''), COALESCE(a.status, '')
		FROM oidc_exchanged_tokens e LEFT JOIN activities a ON a.id = e.activity_id WHERE e.token_hash = ?`, c.signedHash).
		Scan(&u.orgID, &u.activityID, &u.fingerprint, &u.status)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("look up OIDC token claim: %w", err)
	}
	return &u, nil
}

// claimOIDCToken makes activity a, being submitted, the holder of the token
// c, or refuses the submission if another activity holds it (precheck looked
// outside this transaction; a concurrent submission may have claimed it).
func claimOIDCToken(ctx context.Context, tx *txn, c oidcClaims, a *activity, now time.Time) error {
	held, err := claimOf(ctx, tx, c)
	if err != nil {
		return err
	}
	if held != nil {
		return unauthenticatedf("INVALID_OIDC_TOKEN", "parameters.oidcToken: %v", held.refusal(a.OrgID))
	}
	return recordClaim(ctx, tx, c, a, now)
}

// recordClaim remembers that activity a holds the token c, until the token
// could no longer pass verification anyway (exp plus the leeway), and
// forgets the tokens that have reached that point. How far it has forgotten
// is kept (statePrunedThrough) and only moves forward: a clock set back
// after a prune must not make a forgotten token usable again. The mark
// moves only to the latest expiry actually forgotten, not to the clock's
// reading: a clock once far ahead then refuses only tokens expiring before
// the ones it made the service forget, not every token until it is reached
// again. The records and the mark are service-wide, as a token's claim is
// (any organization's submission of it is refused).
func recordClaim(ctx context.Context, tx *txn, c oidcClaims, a *activity, now time.Time) error {
	if c.signedHash == "" {
		return errors.New("record OIDC token claim: the token was not verified")
	}
	mark, err := prunedThrough(ctx, tx)
	if err != nil {
		return err
	}
	var forgotten sql.NullInt64
	if err := tx.QueryRowContext(ctx, `SELECT MAX(expires_s) FROM oidc_exchanged_tokens WHERE expires_s < ?`, now.Unix()).Scan(&forgotten); err != nil {
		return fmt.Errorf("find used OIDC tokens to prune: %w", err)
	}
	if forgotten.Valid {
		if forgotten.Int64 > mark {
			if err := putState(ctx, tx, statePrunedThrough, []byte(strconv.FormatInt(forgotten.Int64, 10))); err != nil {
				return fmt.Errorf("record how far used OIDC tokens are pruned: %w", err)
			}
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM oidc_exchanged_tokens WHERE expires_s <= ?`, forgotten.Int64); err != nil {
			return fmt.Errorf("prune used OIDC tokens: %w", err)
		}
	}
	until := numericDate(c.Expiry).Add(oidcLeeway).Unix() + 1
	if _, err := tx.ExecContext(ctx, `INSERT INTO oidc_exchanged_tokens(token_hash, org_id, activity_id, expires_s) VALUES (?, ?, ?, ?)`,
		c.signedHash, a.OrgID, a.ID, until); err != nil {
		return fmt.Errorf("record OIDC token claim: %w", err)
	}
	return nil
}

// statePrunedThrough (service_state) is the latest expires_s, in Unix
// seconds, of the used-token records pruned: a token whose exp plus the
// leeway is at or before it may have been forgotten, so verification
// refuses it whatever the clock says now.
const statePrunedThrough = "oidc_pruned_through"

// prunedThrough reads statePrunedThrough; 0 if no claim was ever pruned.
func prunedThrough(ctx context.Context, q querier) (int64, error) {
	raw, ok, err := getState(ctx, q, statePrunedThrough)
	if err != nil || !ok {
		return 0, err
	}
	mark, err := strconv.ParseInt(string(raw), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("stored %s %q is not the Unix seconds vigil writes: %w", statePrunedThrough, truncateForMessage(string(raw)), err)
	}
	return mark, nil
}
