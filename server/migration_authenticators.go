package server

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"strings"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
)

// uniqueAuthenticators prepares migration 19 in its transaction: each
// passkey's public key in the form stamps carry (compressed), then, in each
// organization, the oldest of the passkeys that share a public key or a
// credential id is kept and the others are removed, so that the unique
// indexes can be built and an old database still opens. It returns the
// passkeys it removed, for migrateTo to log once the migration has committed:
// each one's user has lost that passkey and needs a new key pair.
func uniqueAuthenticators(ctx context.Context, tx *sql.Tx) ([]removedPasskey, error) {
	type row struct {
		rowid                                    int64
		id, org, user, credentialID, stored, pub string
	}
	rows, err := tx.QueryContext(ctx, `SELECT rowid, id, org_id, user_id, credential_id, public_key FROM authenticators ORDER BY org_id, created_ns, rowid`)
	if err != nil {
		return nil, fmt.Errorf("read authenticators: %w", err)
	}
	var all []row
	for rows.Next() {
		var r row
		if err := rows.Scan(&r.rowid, &r.id, &r.org, &r.user, &r.credentialID, &r.stored); err != nil {
			rows.Close()
			return nil, fmt.Errorf("read authenticators: %w", err)
		}
		// A stored key that is no P-256 point never verified a stamp; it
		// stays as it was, and can only collide with itself.
		r.pub = strings.ToLower(r.stored)
		if pub, err := keys.CanonicalPublicKey(api.CredentialWebAuthnAuthenticator, r.stored); err == nil {
			r.pub = pub
		}
		all = append(all, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read authenticators: %w", err)
	}
	var removed []removedPasskey
	byKey, byCredential := map[[2]string]row{}, map[[2]string]row{}
	for _, r := range all {
		kept, dup := byKey[[2]string{r.org, r.pub}]
		what := "public key " + r.pub
		if !dup {
			kept, dup = byCredential[[2]string{r.org, r.credentialID}]
			what = "credential id " + r.credentialID
		}
		if dup {
			if _, err := tx.ExecContext(ctx, `DELETE FROM authenticators WHERE rowid = ?`, r.rowid); err != nil {
				return nil, fmt.Errorf("remove authenticator %s: %w", r.id, err)
			}
			removed = append(removed, removedPasskey{org: r.org, user: r.user, id: r.id, shares: what, keptID: kept.id, keptUser: kept.user})
			continue
		}
		byKey[[2]string{r.org, r.pub}], byCredential[[2]string{r.org, r.credentialID}] = r, r
		if r.pub != r.stored {
			if _, err := tx.ExecContext(ctx, `UPDATE authenticators SET public_key = ? WHERE rowid = ?`, r.pub, r.rowid); err != nil {
				return nil, fmt.Errorf("store authenticator %s compressed: %w", r.id, err)
			}
		}
	}
	for i, r := range removed {
		st, err := standingOf(ctx, tx, r.org, r.user)
		if err != nil {
			return nil, err
		}
		removed[i].standing = st
	}
	return removed, nil
}

// removedPasskey is a passkey migration 19 removed: it shares a key or a
// credential id with an older passkey of its organization, which is kept.
type removedPasskey struct {
	org, user, id, shares, keptID, keptUser string
	standing                                standing // what its user has left
}

func (r removedPasskey) warn(log *slog.Logger, backup string) {
	r.standing.warn(log, backup, "migration 19 removed a passkey registered twice in its organization (the older one is kept): one key is one credential; register a new key pair for the user",
		"organization", r.org, "user", r.user, "authenticator", r.id, "shares", r.shares, "kept_authenticator", r.keptID, "kept_user", r.keptUser)
}
