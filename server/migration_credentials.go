package server

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"slices"
	"strings"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
)

// migrationUniqueCredentials is the migration that uniqueCredentials
// prepares.
const migrationUniqueCredentials = 20

// credentialRow is an API key or a passkey as migrations 20 and 21 read
// it.
type credentialRow struct {
	table, id, org, user, kind string
	rowid, created             int64
	curve                      string // keys.CurveOfCredentialType
	pub                        string // canonical for its type, or as stored lowercased
	storedCanonical            bool   // stored as pub: a stamp's key matched it
}

// uniqueCredentials prepares migration 20 in its transaction: migration 19
// made a key one passkey, but a database stored before registration refused
// it may still hold one key as user x's API key and user y's passkey (or as
// two API keys, once compressed and once not), and its one holder votes as
// both. In each organization one credential of a key is kept, as
// removeSharedKeys chooses, and the others are removed; it returns them for
// migrateTo to log once the migration has committed.
func uniqueCredentials(ctx context.Context, tx *sql.Tx) ([]removedCredential, error) {
	return removeSharedKeys(ctx, tx, migrationUniqueCredentials)
}

// removeSharedKeys keeps one credential, API key or passkey, per key of
// each organization (keys compared in the form stamps carry, on their
// curve: a P-256 and a secp256k1 key with the same bytes are two keys,
// whose holders are two), removes the
// others in tx for migration and returns them with what their users have
// left. It keeps the credential stored in the form stamps carry, else the
// oldest: a stamp's key is lowercase hex, compressed for P-256 and
// secp256k1, and was always looked up as stored, so at every schema before
// 21 an API key stored uncompressed or in upper-case hex matched no stamp
// (migration 19 had stored every passkey compressed). Keeping such a row
// because it is older would, once migration 21 rewrites it, hand the key to
// a user who never signed with it and take it from the one who did.
func removeSharedKeys(ctx context.Context, tx *sql.Tx, migration int) ([]removedCredential, error) {
	var all []credentialRow
	read := func(table, query string, args ...any) error {
		rows, err := tx.QueryContext(ctx, query, args...)
		if err != nil {
			return fmt.Errorf("read %s: %w", table, err)
		}
		defer rows.Close()
		for rows.Next() {
			r := credentialRow{table: table}
			var typ, stored string
			if err := rows.Scan(&r.rowid, &r.id, &r.org, &r.user, &typ, &stored, &r.created); err != nil {
				return fmt.Errorf("read %s: %w", table, err)
			}
			r.kind = "API key"
			if table == "authenticators" {
				r.kind = "passkey"
			}
			// A stored key that is no point of its type's curve never
			// verified a stamp; it stays as it was, and is compared as stored.
			r.curve = keys.CurveOfCredentialType(typ)
			r.pub = strings.ToLower(stored)
			if pub, err := keys.CanonicalPublicKey(typ, stored); err == nil {
				r.pub = pub
				r.storedCanonical = pub == stored
			}
			all = append(all, r)
		}
		if err := rows.Err(); err != nil {
			return fmt.Errorf("read %s: %w", table, err)
		}
		return nil
	}
	if err := read("api_keys", `SELECT rowid, id, org_id, user_id, credential_type, public_key, created_ns FROM api_keys`); err != nil {
		return nil, err
	}
	if err := read("authenticators", `SELECT rowid, id, org_id, user_id, ?, public_key, created_ns FROM authenticators`, api.CredentialWebAuthnAuthenticator); err != nil {
		return nil, err
	}
	// The one kept first: stored canonical, then oldest; at the same instant an API key before a passkey, then
	// in the order stored.
	slices.SortStableFunc(all, func(a, b credentialRow) int {
		if c := strings.Compare(a.org, b.org); c != 0 {
			return c
		}
		if a.storedCanonical != b.storedCanonical {
			if a.storedCanonical {
				return -1
			}
			return 1
		}
		if c := cmp.Compare(a.created, b.created); c != 0 {
			return c
		}
		if c := strings.Compare(a.table, b.table); c != 0 {
			return c
		}
		return cmp.Compare(a.rowid, b.rowid)
	})
	var removed []removedCredential
	kept := map[[3]string]credentialRow{}
	for _, r := range all {
		key := [3]string{r.org, r.curve, r.pub}
		k, dup := kept[key]
		if !dup {
			kept[key] = r
			continue
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM `+r.table+` WHERE rowid = ?`, r.rowid); err != nil {
			return nil, fmt.Errorf("remove %s %s: %w", r.kind, r.id, err)
		}
		removed = append(removed, removedCredential{removed: r, kept: k, migration: migration})
	}
	for i, r := range removed {
		st, err := standingOf(ctx, tx, r.removed.org, r.removed.user)
		if err != nil {
			return nil, err
		}
		removed[i].standing = st
	}
	return removed, nil
}

// removedCredential is an API key or passkey migration 20 or 21 removed:
// its key is another credential of its organization, which is kept.
type removedCredential struct {
	removed, kept credentialRow
	migration     int
	standing      standing // what its user has left
}

func (r removedCredential) warn(log *slog.Logger, backup string) {
	why := "is already an older credential of its organization (that one is kept)"
	if r.kept.storedCanonical && !r.removed.storedCanonical {
		why = "is already a credential of its organization stored in the form stamps carry (that one is kept: it authenticated, this one, stored in another form, matched no stamp)"
	}
	r.standing.warn(log, backup, fmt.Sprintf("migration %d removed a credential whose public key %s: one key is one credential, or its holder votes as two users; register a new key pair for the user", r.migration, why),
		"organization", r.removed.org, "user", r.removed.user, "credential", r.removed.kind, "id", r.removed.id, "public_key", truncateForMessage(r.removed.pub),
		"kept_credential", r.kept.kind, "kept_id", r.kept.id, "kept_user", r.kept.user)
}
