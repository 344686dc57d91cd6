package server

import (
	"context"
	"database/sql"
	"log/slog"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/keys"
)

// openSchema is a database file in dir at schema version last, on one
// connection with foreign keys off, as a sqlite3 shell opens it.
func openSchema(t *testing.T, dir string, last int) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, DatabaseFile)+"?_pragma=journal_mode(WAL)")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	if err := migrateUpTo(context.Background(), db, last); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`PRAGMA foreign_keys = OFF`); err != nil {
		t.Fatal(err)
	}
	return db
}

func execAll(t *testing.T, db *sql.DB, stmts ...string) {
	t.Helper()
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// statement is SQL with its arguments, for the rows an old database holds.
type statement struct {
	sql  string
	args []any
}

// execStatements runs each statement in db and closes it, as the previous
// vigil left the file.
func execStatements(t *testing.T, db *sql.DB, stmts []statement) {
	t.Helper()
	for _, q := range stmts {
		if _, err := db.Exec(q.sql, q.args...); err != nil {
			t.Fatalf("%s: %v", q.sql, err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
}

// openUpgraded opens the service on dir, migrating its database, with the
// service's log kept for the test to read; what fails it is what.
func openUpgraded(t *testing.T, dir, what string) (*Server, *logBuffer) {
	t.Helper()
	logs := &logBuffer{}
	srv, err := Open(Config{DataDir: dir, Logger: slog.New(slog.NewTextHandler(logs, nil))})
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv, logs
}

// A row whose parent was deleted by hand (a sqlite3 shell has foreign keys
// off) did not stop the previous vigil serving the database, so it does not
// stop the upgrade either: the service starts, the row stays as it was, and
// the log names it and says how to mend it.
func TestUpgradeGoesAroundADanglingRowItDidNotTouch(t *testing.T) {
	dir := t.TempDir()
	db := openSchema(t, dir, len(migrations)-1)
	execAll(t, db,
		`INSERT INTO organizations(id, name, root_threshold, root_user_ids, created_ns) VALUES ('o', 'Old', 1, '["x"]', 1)`,
		// user 'gone' was deleted in a sqlite3 shell: its API key stayed.
		`INSERT INTO api_keys(id, org_id, user_id, name, public_key, credential_type, created_ns, updated_ns) VALUES ('k', 'o', 'gone', 'k', '02ab', 'CREDENTIAL_TYPE_API_KEY_P256', 1, 1)`)
	var rowid int64
	if err := db.QueryRow(`SELECT rowid FROM api_keys WHERE id = 'k'`).Scan(&rowid); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	srv, logs := openUpgraded(t, dir, "a database the previous vigil served does not open after the upgrade, for a row no migration touched")
	var version int
	if err := srv.db.read.QueryRowContext(context.Background(), `SELECT MAX(version) FROM schema_migrations`).Scan(&version); err != nil || version != len(migrations) {
		t.Errorf("schema version %d (%v) after the upgrade, want %d", version, err, len(migrations))
	}
	var n int
	if err := srv.db.read.QueryRowContext(context.Background(), `SELECT count(*) FROM api_keys WHERE id = 'k'`).Scan(&n); err != nil || n != 1 {
		t.Errorf("the dangling API key: %d rows (%v), want it left as it was", n, err)
	}
	s := logs.String()
	for _, want := range []string{"level=WARN", "table=api_keys", "column=user_id", "references=users", "rowids=" + strconv.FormatInt(rowid, 10),
		"DELETE FROM api_keys WHERE user_id NOT IN (SELECT id FROM users);", "from a backup"} {
		if !strings.Contains(s, want) {
			t.Errorf("the log should say %q about the dangling row:\n%s", want, s)
		}
	}
	if c := strings.Count(s, "table=api_keys"); c != 1 {
		t.Errorf("the dangling row is logged %d times, want once per upgrade:\n%s", c, s)
	}
}

// The check before each migration commits still refuses a row the migration
// itself would leave dangling, whatever dangled before, and says what to do.
func TestMigrationCheckRefusesOnlyRowsItLeftDangling(t *testing.T) {
	ctx := context.Background()
	db := openSchema(t, t.TempDir(), len(migrations))
	defer db.Close()
	execAll(t, db,
		`INSERT INTO organizations(id, name, root_threshold, root_user_ids, created_ns) VALUES ('o', 'Old', 1, '["u"]', 1)`,
		`INSERT INTO users(id, org_id, name, email, seq, created_ns, updated_ns) VALUES ('u', 'o', 'u', '', 1, 1, 1)`,
		`INSERT INTO api_keys(id, org_id, user_id, name, public_key, credential_type, created_ns, updated_ns) VALUES
			('k-gone', 'o', 'gone', 'k', '02ab', 'CREDENTIAL_TYPE_API_KEY_P256', 1, 1),
			('k-u', 'o', 'u', 'k', '02cd', 'CREDENTIAL_TYPE_API_KEY_P256', 1, 1)`)
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	before, err := findDangling(ctx, conn)
	if err != nil {
		t.Fatal(err)
	}
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if same, err := findDangling(ctx, tx); err != nil {
		t.Fatal(err)
	} else if err := before.added(same); err != nil {
		t.Errorf("nothing new dangles, yet the check refuses: %v", err)
	}
	// A migration that deletes u (foreign keys off: no cascade) leaves k-u dangling.
	if _, err := tx.ExecContext(ctx, `DELETE FROM users WHERE id = 'u'`); err != nil {
		t.Fatal(err)
	}
	var rowid int64
	if err := tx.QueryRowContext(ctx, `SELECT rowid FROM api_keys WHERE id = 'k-u'`).Scan(&rowid); err != nil {
		t.Fatal(err)
	}
	after, err := findDangling(ctx, tx)
	if err != nil {
		t.Fatal(err)
	}
	err = before.added(after)
	if err == nil {
		t.Fatal("a migration that leaves an API key without its user is not refused")
	}
	for _, want := range []string{"1 row(s) of api_keys", "rowids " + strconv.FormatInt(rowid, 10) + ")", "user_id", "users", "rolled back", "previous vigil"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the refusal should say %q: %v", want, err)
		}
	}
}

// Migration 19 tells the operator which passkeys it removed only once it
// has committed: a migration that fails after removing them (here its
// record is refused, as a full disk would) rolls back, both passkeys are
// still stored, and the log says nothing was removed. The start that then
// succeeds logs each removal once.
func TestMigration19LogsRemovalsOnlyOnceCommitted(t *testing.T) {
	dir := t.TempDir()
	db := openSchema(t, dir, migrationUniqueAuthenticators-1)
	pk, err := keys.NewSoftAuthenticator("")
	if err != nil {
		t.Fatal(err)
	}
	execAll(t, db,
		`INSERT INTO organizations(id, name, root_threshold, root_user_ids, created_ns) VALUES ('o', 'Old', 1, '["x"]', 1)`,
		`INSERT INTO users(id, org_id, name, email, seq, created_ns, updated_ns) VALUES ('x', 'o', 'x', '', 1, 1, 1), ('y', 'o', 'y', '', 2, 1, 1)`,
		`INSERT INTO authenticators(id, org_id, user_id, name, credential_id, public_key, created_ns, updated_ns) VALUES
			('a-x', 'o', 'x', 'pk', 'cred-1', '`+pk.PublicKeyHex()+`', 1, 1), ('a-y', 'o', 'y', 'pk', 'cred-2', '`+pk.PublicKeyHex()+`', 2, 2)`,
		`CREATE TRIGGER fail_19 BEFORE INSERT ON schema_migrations WHEN NEW.version = 19 BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END`)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	var logs logBuffer
	logger := slog.New(slog.NewTextHandler(&logs, nil))
	if srv, err := Open(Config{DataDir: dir, Logger: logger}); err == nil {
		srv.Close()
		t.Fatal("migration 19 succeeded though its record was refused")
	}
	db = openSchema(t, dir, 0)
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM authenticators`).Scan(&n); err != nil || n != 2 {
		t.Fatalf("authenticators after the failed migration: %d (%v), want 2 (rolled back)", n, err)
	}
	if s := logs.String(); strings.Contains(s, "removed a passkey") {
		t.Errorf("the log says a passkey was removed, but the migration rolled back and both passkeys are still stored:\n%s", s)
	}
	execAll(t, db, `DROP TRIGGER fail_19`)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	srv, err := Open(Config{DataDir: dir, Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	if c := strings.Count(logs.String(), "removed a passkey"); c != 1 || !strings.Contains(logs.String(), "authenticator=a-y") {
		t.Errorf("the committed migration logged %d removals, want one, of a-y:\n%s", c, logs.String())
	}
}
