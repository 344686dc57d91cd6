package server

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/vigil-console/vigil/api"
)

// badPin is a method, step i's method j, pinned to an id no vote can meet
// it with: none of its user's credentials (proves is ""), one whose votes
// prove another method type (proves), or an API key that expired (expired
// is when; every request it stamps is refused, so it casts no vote).
type badPin struct {
	i, j             int
	id, user, method string
	proves           string
	expired          time.Time
}

// refusal is what the caller is told, as a format and its arguments for
// invalidf or failf, which quote (and bound) each argument.
func (b *badPin) refusal() (string, []any) {
	at := "requiredAuthenticationMethods[%d].any[%d].id: "
	if !b.expired.IsZero() {
		return at + "%q is user %s's API key, which expired at %s: every request it stamps is refused, so no vote could ever meet this step; pin a key of theirs that has not expired (get_user lists them), or leave the id out to accept any %s",
			[]any{b.i, b.j, b.id, b.user, b.expired.UTC().Format(time.RFC3339), b.method}
	}
	if b.proves == "" {
		return at + "%s %q is not one of user %s's credentials, so no vote could ever meet this step; pin one of theirs (get_user lists them), or leave the id out to accept any %s",
			[]any{b.i, b.j, api.CredentialKind(b.method), b.id, b.user, b.method}
	}
	if len(api.CredentialTypesProving(b.method)) == 0 {
		return at + "%q is user %s's %s, whose votes prove %s, and no credential's votes prove %s, so no vote could ever meet this step; leave the id out, or make the method %s to keep this pin",
			[]any{b.i, b.j, b.id, b.user, api.CredentialKind(b.proves), b.proves, b.method, b.proves}
	}
	return at + "%q is user %s's %s, whose votes prove %s, but method type %s needs one of their %ss, so no vote could ever meet this step; pin one of those (get_user lists them), make the method %s to keep this pin, or leave the id out to accept any %s",
		[]any{b.i, b.j, b.id, b.user, api.CredentialKind(b.proves), b.proves, b.method, api.CredentialKind(b.method), b.proves, b.method}
}

// unmeetableMfaPin finds the first method of p pinned to an id no vote can
// meet it with, or returns nil: an id that is none of p's user's credentials
// (passkeys and API keys, session and OAuth keys among them), since the user
// votes with their own credentials only; or a credential of theirs whose
// votes prove another type (an API_KEY pinned to a passkey), judged as a
// vote is (voteMethod: api.AuthenticationTypeOf the credential's type, a
// passkey's being api.CredentialWebAuthnAuthenticator); or an API key of
// theirs that has expired at now (authenticate refuses it, as
// API_KEY_EXPIRED). Any such step could never be met and would lock the user out of every activity the policy
// covers. q is read as it is now: submit checks it first, and execution again
// inside its write transaction, since a credential may be deleted while the
// activity waits for votes (and an activity submitted before types were
// checked may still be waiting).
func unmeetableMfaPin(ctx context.Context, q querier, orgID string, p *api.CreateMfaPolicyParams, now time.Time) (*badPin, error) {
	for i, step := range p.RequiredAuthenticationMethods {
		for j, m := range step.Any {
			if m.ID == "" {
				continue
			}
			// Ids are unique across both tables: at most one row.
			// A passkey has no lifetime (0: never expires).
			var typ string
			var k apiKeyEntry
			err := q.QueryRowContext(ctx, `SELECT ?, 0, 0 FROM authenticators WHERE id = ? AND org_id = ? AND user_id = ?
				UNION ALL SELECT credential_type, expiration_seconds, created_ns FROM api_keys WHERE id = ? AND org_id = ? AND user_id = ? LIMIT 1`,
				api.CredentialWebAuthnAuthenticator, m.ID, orgID, p.UserID, m.ID, orgID, p.UserID).Scan(&typ, &k.exp, &k.created)
			if errors.Is(err, sql.ErrNoRows) {
				return &badPin{i: i, j: j, id: m.ID, user: p.UserID, method: m.Type}, nil
			}
			if err != nil {
				return nil, fmt.Errorf("MFA policy pin %s: %w", m.ID, err)
			}
			if proves := api.AuthenticationTypeOf(typ); proves != m.Type {
				return &badPin{i: i, j: j, id: m.ID, user: p.UserID, method: m.Type, proves: proves}, nil
			}
			if expiry, ok := k.expiry(); ok && !now.Before(expiry) {
				return &badPin{i: i, j: j, id: m.ID, user: p.UserID, method: m.Type, expired: expiry}, nil
			}
		}
	}
	return nil, nil
}
