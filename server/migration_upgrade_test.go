package server

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// dumpDatabase is everything dir's vigil.db holds: its schema and every row
// of every table, read by a connection of its own, closed before it returns.
func dumpDatabase(t *testing.T, dir string) string {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, DatabaseFile))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var b strings.Builder
	var tables []string
	rows, err := db.Query(`SELECT type, name, COALESCE(sql, '') FROM sqlite_master ORDER BY type, name`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var typ, name, text string
		if err := rows.Scan(&typ, &name, &text); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s %s: %s\n", typ, name, text)
		if typ == "table" {
			tables = append(tables, name)
		}
	}
	rows.Close()
	for _, table := range tables {
		rows, err := db.Query(`SELECT * FROM "` + table + `" ORDER BY rowid`)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&b, "%s %q\n", table, vals)
		}
		rows.Close()
	}
	return b.String()
}

// schemaVersion is the version recorded in dir's vigil.db.
func schemaVersion(t *testing.T, dir string) int {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, DatabaseFile))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var v int
	if err := db.QueryRow(`SELECT MAX(version) FROM schema_migrations`).Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

// oldDataDir is a data directory whose vigil.db is at schema version last
// and holds an organization with a user, an API key and a completed
// activity, as the previous vigil left it.
func oldDataDir(t *testing.T, last int, extra ...string) string {
	t.Helper()
	dir := t.TempDir()
	db := openSchema(t, dir, last)
	execAll(t, db, append([]string{
		`INSERT INTO organizations(id, name, root_threshold, root_user_ids, created_ns) VALUES ('o', 'Old', 1, '["u"]', 1)`,
		`INSERT INTO users(id, org_id, name, email, seq, created_ns, updated_ns) VALUES ('u', 'o', 'u', '', 1, 1, 1)`,
		`INSERT INTO api_keys(id, org_id, user_id, name, public_key, credential_type, created_ns, updated_ns) VALUES ('k', 'o', 'u', 'k', '02ab', 'CREDENTIAL_TYPE_API_KEY_P256', 1, 1)`,
		`INSERT INTO activities(id, org_id, type, status, fingerprint, requester_id, body, intent, result, created_ns, updated_ns) VALUES
			('a', 'o', 'ACTIVITY_TYPE_CREATE_USER_TAG', 'ACTIVITY_STATUS_COMPLETED', 'sha256:00', 'u', '{}', '{}', '{}', 1, 1)`,
	}, extra...)...)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	return dir
}

// holdOpen opens dir's vigil.db as another program does (an older vigil
// serve, which takes no vigil.lock), reads it, and keeps it open until the
// test ends; inTx leaves a read transaction open too.
func holdOpen(t *testing.T, dir string, inTx bool) (close func()) {
	t.Helper()
	ctx := context.Background()
	other, err := sql.Open("sqlite", "file:"+filepath.Join(dir, DatabaseFile)+"?_pragma=journal_mode(WAL)")
	if err != nil {
		t.Fatal(err)
	}
	conn, err := other.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if inTx {
		if _, err := conn.ExecContext(ctx, `BEGIN`); err != nil {
			t.Fatal(err)
		}
	}
	var n int
	if err := conn.QueryRowContext(ctx, `SELECT count(*) FROM schema_migrations`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	closed := false
	close = func() {
		if closed {
			return
		}
		closed = true
		if inTx {
			conn.ExecContext(ctx, `ROLLBACK`)
		}
		conn.Close()
		other.Close()
	}
	t.Cleanup(close)
	return close
}

// A vigil.db another program has open (an older vigil serve, idle or
// reading) is neither upgraded nor served: the start is refused, saying so
// and what to do, and the database is left as it was. Once that program
// has stopped, the same start succeeds, and leaves the file free for other
// programs to read.
func TestOpenRefusesADatabaseAnotherProgramHasOpen(t *testing.T) {
	for _, c := range []struct {
		name    string
		version int
		inTx    bool
	}{
		{"idle older vigil, schema 9", 9, false},
		{"older vigil reading, schema 9", 9, true},
		{"idle program, current schema", len(migrations), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := oldDataDir(t, c.version)
			before := dumpDatabase(t, dir)
			stop := holdOpen(t, dir, c.inTx)

			srv, err := Open(Config{DataDir: dir})
			if err == nil {
				srv.Close()
				t.Fatal("the service opened a vigil.db another program has open")
			}
			if !errors.Is(err, errDatabaseInUse) {
				t.Errorf("refusal: %v, want %q", err, errDatabaseInUse)
			}
			for _, want := range []string{"vigil.db is open in another program", "older vigil serve", "stop it, then start this vigil again"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("the refusal should say %q: %v", want, err)
				}
			}
			if strings.Contains(err.Error(), "upgrade the schema") {
				t.Errorf("the refusal speaks of an upgrade, which did not start: %v", err)
			}
			stop()
			if after := dumpDatabase(t, dir); after != before {
				t.Errorf("the refused start changed the database:\nbefore:\n%s\nafter:\n%s", before, after)
			}

			srv, err = Open(Config{DataDir: dir})
			if err != nil {
				t.Fatalf("start once the other program stopped: %v", err)
			}
			defer srv.Close()
			// Nothing of the check is left held: another program may still read
			// (and, between the service's writes, write) while it runs.
			ext, err := sql.Open("sqlite", "file:"+filepath.Join(dir, DatabaseFile)+"?_pragma=busy_timeout(0)")
			if err != nil {
				t.Fatal(err)
			}
			defer ext.Close()
			var v int
			if err := ext.QueryRow(`SELECT MAX(version) FROM schema_migrations`).Scan(&v); err != nil || v != len(migrations) {
				t.Errorf("another program reading the served database: version %d (%v), want %d", v, err, len(migrations))
			}
			if _, err := ext.Exec(`CREATE TABLE scratch(x); DROP TABLE scratch`); err != nil {
				t.Errorf("another program writing between the service's writes: %v", err)
			}
		})
	}
}

// A program holding vigil.db in EXCLUSIVE locking mode (a sqlite3 shell
// after `PRAGMA locking_mode=EXCLUSIVE` and one write) keeps its lock with
// no transaction open: the start gets the documented in-use refusal, not
// a failed write with advice to end a transaction there is none of.
func TestOpenRefusesADatabaseAnotherProgramHoldsExclusively(t *testing.T) {
	dir := oldDataDir(t, len(migrations))
	before := dumpDatabase(t, dir)
	other, err := sql.Open("sqlite", "file:"+filepath.Join(dir, DatabaseFile))
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	other.SetMaxOpenConns(1)
	for _, q := range []string{`PRAGMA locking_mode = EXCLUSIVE`, `BEGIN EXCLUSIVE`, `CREATE TABLE scratch(x)`, `DROP TABLE scratch`, `COMMIT`} {
		if _, err := other.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}

	srv, err := Open(Config{DataDir: dir})
	if err == nil {
		srv.Close()
		t.Fatal("the service opened a vigil.db another program holds exclusively")
	}
	if !errors.Is(err, errDatabaseInUse) {
		t.Errorf("refusal: %v, want %q", err, errDatabaseInUse)
	}
	for _, wrong := range []string{"could not be written", "ROLLBACK", "upgrade the schema"} {
		if strings.Contains(err.Error(), wrong) {
			t.Errorf("the refusal should not say %q: %v", wrong, err)
		}
	}
	if err := other.Close(); err != nil {
		t.Fatal(err)
	}
	if after := dumpDatabase(t, dir); after != before {
		t.Errorf("the refused start changed the database:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}

// An upgrade whose migration fails after others have run (here migration 12,
// from schema 9, with a table in its way) is rolled back whole: the schema
// version and every row are as they were, so the previous vigil can serve
// the database again, and the message says so. A database whose schema is
// not that of its recorded version (written by a build whose migrations are
// numbered differently) is told as such.
func TestFailedUpgradeLeavesTheDatabaseAsItWas(t *testing.T) {
	for _, c := range []struct {
		name      string
		version   int
		obstacle  string
		migration int
	}{
		{"a table in the way of migration 12", 9, `CREATE TABLE webhook_outbox(x)`, 12},
		{"an index in the way of migration 6", 4, `CREATE INDEX activities_org_status ON activities(org_id, status, seq)`, 6},
		{"a column in the way of migration 11", 9, `ALTER TABLE votes ADD COLUMN credential_type TEXT NOT NULL DEFAULT ''`, 11},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := oldDataDir(t, c.version, c.obstacle)
			before := dumpDatabase(t, dir)

			srv, err := Open(Config{DataDir: dir})
			if err == nil {
				srv.Close()
				t.Fatal("the upgrade succeeded with a table in its way")
			}
			if v := schemaVersion(t, dir); v != c.version {
				t.Errorf("schema version %d after the failed upgrade, want %d as before: no vigil serves it now", v, c.version)
			}
			if after := dumpDatabase(t, dir); after != before {
				t.Errorf("the failed upgrade changed the database:\nbefore:\n%s\nafter:\n%s", before, after)
			}
			for _, want := range []string{
				fmt.Sprintf("migration %d:", c.migration),
				fmt.Sprintf("rolled back whole: the database is as it was, at schema version %d", c.version),
				fmt.Sprintf("does not match its recorded version %d", c.version),
				"development build", "serve it with the build that wrote it",
			} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("the failure should say %q: %v", want, err)
				}
			}
		})
	}
}
