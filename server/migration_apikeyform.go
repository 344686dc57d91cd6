package server

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/vigil-console/vigil/keys"
)

// migrationCanonicalAPIKeys is the migration that canonicalAPIKeys
// prepares.
const migrationCanonicalAPIKeys = 21

// canonicalAPIKeys prepares migration 21 in its transaction: it stores
// every API key in the form stamps carry (keys.CanonicalPublicKey). A
// stamp's key is looked up in that form, so a key an earlier vigil stored
// as registered (uncompressed, or in upper-case hex) matched no stamp: its
// user was refused UNKNOWN_KEY with the key plainly registered. A key that is no point of its type's curve
// never verified a stamp and stays as it was.
//
// Schema 20 compared a new key with the stored ones as stored, so it may
// have registered such a key again, canonical, as another API key or
// passkey: rewritten, the old row would collide with it, or vote as a
// second user under one private key. So first, as migration 20 does, one
// credential per key of each organization is kept, the one stored
// canonical (it authenticated; the other never did), else the oldest; the
// others are removed and returned for migrateTo to log once the upgrade
// has committed. (Migration 20 keeps by the same rule, so an upgrade from
// schema 19 or older ends as one from schema 20 does.)
func canonicalAPIKeys(ctx context.Context, tx *sql.Tx) ([]removedCredential, error) {
	removed, err := removeSharedKeys(ctx, tx, migrationCanonicalAPIKeys)
	if err != nil {
		return nil, err
	}
	// A P-256 key stored uncompressed and a secp256k1 key with its
	// compressed bytes are two keys, both kept, and would collide on
	// (org_id, public_key) once rewritten; migration 22, in the same
	// upgrade, makes the index unique on the curve too.
	if _, err := tx.ExecContext(ctx, `DROP INDEX IF EXISTS api_keys_org_public_key`); err != nil {
		return nil, fmt.Errorf("drop the unique index of API keys without their curve: %w", err)
	}
	type change struct {
		rowid int64
		pub   string
	}
	var changes []change
	rows, err := tx.QueryContext(ctx, `SELECT rowid, credential_type, public_key FROM api_keys`)
	if err != nil {
		return nil, fmt.Errorf("read api_keys: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var rowid int64
		var typ, stored string
		if err := rows.Scan(&rowid, &typ, &stored); err != nil {
			return nil, fmt.Errorf("read api_keys: %w", err)
		}
		if pub, err := keys.CanonicalPublicKey(typ, stored); err == nil && pub != stored {
			changes = append(changes, change{rowid, pub})
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read api_keys: %w", err)
	}
	rows.Close()
	for _, c := range changes {
		if _, err := tx.ExecContext(ctx, `UPDATE api_keys SET public_key = ? WHERE rowid = ?`, c.pub, c.rowid); err != nil {
			return nil, fmt.Errorf("store API key (row %d) in the form stamps carry: %w", c.rowid, err)
		}
	}
	return removed, nil
}
