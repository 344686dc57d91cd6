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
// user was refused UNKNOWN_KEY with the key plainly registered, and after
// migration 20 kept it as the oldest of a key's two forms, the key
// authenticated as nobody. Migration 20 left one credential per canonical
// key in each organization, so no two rows become one. A key that is no
// point of its type's curve never verified a stamp and stays as it was.
func canonicalAPIKeys(ctx context.Context, tx *sql.Tx) error {
	type change struct {
		rowid int64
		pub   string
	}
	var changes []change
	rows, err := tx.QueryContext(ctx, `SELECT rowid, credential_type, public_key FROM api_keys`)
	if err != nil {
		return fmt.Errorf("read api_keys: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var rowid int64
		var typ, stored string
		if err := rows.Scan(&rowid, &typ, &stored); err != nil {
			return fmt.Errorf("read api_keys: %w", err)
		}
		if pub, err := keys.CanonicalPublicKey(typ, stored); err == nil && pub != stored {
			changes = append(changes, change{rowid, pub})
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read api_keys: %w", err)
	}
	rows.Close()
	for _, c := range changes {
		if _, err := tx.ExecContext(ctx, `UPDATE api_keys SET public_key = ? WHERE rowid = ?`, c.pub, c.rowid); err != nil {
			return fmt.Errorf("store API key (row %d) in the form stamps carry: %w", c.rowid, err)
		}
	}
	return nil
}
