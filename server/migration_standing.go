package server

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
)

// standing is what a migration's removal of credentials left a user with,
// for its warning: a user with no API key or passkey left cannot sign in to
// register a new one, and a root member so left may leave the root quorum
// out of reach.
type standing struct {
	bare, root bool
}

// standingOf reads, in the migration's transaction after its removals, what
// the user of org has left.
func standingOf(ctx context.Context, tx *sql.Tx, org, user string) (standing, error) {
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM api_keys WHERE user_id = ?) + (SELECT count(*) FROM authenticators WHERE user_id = ?)`,
		user, user).Scan(&n); err != nil {
		return standing{}, fmt.Errorf("credentials of user %s: %w", user, err)
	}
	var roots string
	err := tx.QueryRowContext(ctx, `SELECT root_user_ids FROM organizations WHERE id = ?`, org).Scan(&roots)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return standing{}, fmt.Errorf("root quorum of organization %s: %w", org, err)
	}
	var ids []string
	_ = json.Unmarshal([]byte(roots), &ids) // unreadable: not known to be root
	return standing{bare: n == 0, root: slices.Contains(ids, user)}, nil
}

// warn logs msg with args, and what the user's standing asks of the
// operator; backup is the copy of the database vigil wrote before the
// upgrade ("" for an in-memory database, which has none).
func (s standing) warn(log *slog.Logger, backup, msg string, args ...any) {
	restore := "restore the copy of the data directory you made before the upgrade"
	if backup != "" {
		restore = "put the backup vigil wrote before the upgrade (this line's backup value) back as " + DatabaseFile + " (removing any " + DatabaseFile + "-wal and -shm)"
	}
	switch {
	case s.bare && s.root:
		msg += "; the user, a member of the root quorum, has no API key or passkey left: another root member must register one for them (an activity the root quorum approves), and if the remaining root members cannot meet its threshold, stop vigil, " +
			restore + " (docs/local-service.md, Upgrading a data directory), and with the previous vigil have the root quorum register the user's new key pair before upgrading again"
	case s.bare:
		msg += "; the user has no API key or passkey left: another member must register one for them"
	}
	if backup != "" {
		args = append(args, "backup", backup)
	}
	log.Warn(msg, append(args, "credentials_left", !s.bare, "root_member", s.root)...)
}
