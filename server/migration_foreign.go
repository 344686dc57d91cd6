package server

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Every database vigil makes records its schema version in
// schema_migrations, created with the first migration. A vigil.db without
// that table yet holding tables is another program's SQLite file (a wrong
// --data, a file copied over): migrating it would add vigil's tables to it,
// or fail on a name both use, and either way change it.

// errNotVigilDatabase is the refusal to open another program's SQLite database.
var errNotVigilDatabase = errors.New(DatabaseFile + " is not a vigil database")

// foreignTablesShown is how many of a foreign database's names a refusal lists.
const foreignTablesShown = 5

// recordedSchemaVersion is the schema version q's database records: 0 for
// a database that has no schema_migrations and nothing else either (a new
// one), and errNotVigilDatabase for one that holds something else.
func recordedSchemaVersion(ctx context.Context, q querier) (int, error) {
	var recorded int
	if err := q.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'`).Scan(&recorded); err != nil {
		return 0, fmt.Errorf("read schema version: %w", err)
	}
	if recorded == 0 {
		return 0, refuseForeignSchema(ctx, q)
	}
	var current int
	if err := q.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_migrations`).Scan(&current); err != nil {
		return 0, fmt.Errorf("read schema version: %w", err)
	}
	return current, nil
}

// refuseForeignSchema is errNotVigilDatabase, naming what it holds, for a
// database without schema_migrations that holds anything; nil for an empty one.
func refuseForeignSchema(ctx context.Context, q querier) error {
	rows, err := q.QueryContext(ctx, `SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite\_%' ESCAPE '\' ORDER BY type = 'table' DESC, name`)
	if err != nil {
		return fmt.Errorf("read schema version: %w", err)
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return fmt.Errorf("read schema version: %w", err)
		}
		names = append(names, name)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read schema version: %w", err)
	}
	if len(names) == 0 {
		return nil
	}
	// Quoted: the names are another program's, and end up on a terminal.
	shown := make([]string, 0, foreignTablesShown+1)
	for _, name := range names[:min(len(names), foreignTablesShown)] {
		shown = append(shown, strconv.Quote(name))
	}
	if more := len(names) - foreignTablesShown; more > 0 {
		shown = append(shown, fmt.Sprintf("and %d more", more))
	}
	return fmt.Errorf("%w: it holds another program's SQLite schema (%s) and no schema_migrations table, which every database vigil makes has; "+
		"vigil leaves it as it is: point --data at a new directory or at one a vigil made", errNotVigilDatabase, strings.Join(shown, ", "))
}

// checkDatabaseFile looks at the database at path as it is, before the
// service's connections switch it to WAL for good: it refuses another
// program's database (errNotVigilDatabase) and one another program holds
// locked (errDatabaseInUse), waiting soleUseBusyTimeout, not the writer's
// longer timeout. Any other failure is left to the service's own open,
// which tells it.
func checkDatabaseFile(ctx context.Context, path string) error {
	db, err := sql.Open("sqlite", "file:"+uriPath(path)+"?_pragma=busy_timeout("+strconv.Itoa(soleUseBusyTimeout)+")")
	if err != nil {
		return nil // the service's own open says why
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	_, err = recordedSchemaVersion(ctx, db)
	switch {
	case errors.Is(err, errNotVigilDatabase):
		return fmt.Errorf("open %s: %w", path, err)
	case isLockBusy(err):
		// %v: the refusal is this one, not a storage failure of SQLite's.
		return fmt.Errorf("open %s: %w (%v)", path, errDatabaseInUse, err)
	}
	return nil
}
