package server

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// foreignDataDir is a data directory whose vigil.db is another program's
// SQLite database, made by stmts in rollback-journal mode (SQLite's
// default), closed before it returns.
func foreignDataDir(t *testing.T, stmts ...string) string {
	t.Helper()
	dir := t.TempDir()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, DatabaseFile))
	if err != nil {
		t.Fatal(err)
	}
	execAll(t, db, stmts...)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	return dir
}

// Another program's SQLite file named vigil.db is refused before anything
// is written, whether or not it shares a table name with vigil's schema:
// the refusal says it is not vigil's and what to do, blames no build of
// vigil, and the file is left byte for byte as it was (not switched to
// WAL, no schema_migrations added).
func TestOpenRefusesAnotherProgramsDatabase(t *testing.T) {
	for _, c := range []struct {
		name  string
		stmts []string
		names []string
	}{
		{"shares a table name with vigil", []string{`CREATE TABLE users(name TEXT)`, `INSERT INTO users VALUES ('x')`}, []string{`"users"`}},
		{"shares no table name", []string{`CREATE TABLE notes(body TEXT)`, `INSERT INTO notes VALUES ('keep me')`}, []string{`"notes"`}},
		{"many tables, one named with a control character", []string{
			`CREATE TABLE a(x)`, `CREATE TABLE b(x)`, `CREATE TABLE c(x)`, `CREATE TABLE d(x)`, `CREATE TABLE e(x)`,
			"CREATE TABLE \"\x1b[2J\"(x)", `CREATE VIEW v AS SELECT x FROM a`,
		}, []string{`"\x1b[2J"`, `"a"`, `"d"`, "and 2 more"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := foreignDataDir(t, c.stmts...)
			path := filepath.Join(dir, DatabaseFile)
			before, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}

			srv, err := Open(Config{DataDir: dir})
			if err == nil {
				srv.Close()
				t.Fatal("the service opened another program's database")
			}
			if !errors.Is(err, errNotVigilDatabase) {
				t.Errorf("refusal: %v, want %q", err, errNotVigilDatabase)
			}
			for _, want := range append([]string{"vigil.db is not a vigil database", "no schema_migrations table", "point --data at a new directory or at one a vigil made"}, c.names...) {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("the refusal should say %s: %v", want, err)
				}
			}
			for _, wrong := range []string{"development build", "serve it with the build that wrote it", "\x1b"} {
				if strings.Contains(err.Error(), wrong) {
					t.Errorf("the refusal should not say %q: %v", wrong, err)
				}
			}
			after, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(before, after) {
				t.Errorf("the refused start changed %s (%d bytes before, %d after; journal mode bytes %v, now %v)",
					DatabaseFile, len(before), len(after), before[18:20], after[18:20])
			}
			for _, f := range []string{path + "-wal", path + "-shm", path + "-journal"} {
				if _, err := os.Stat(f); !errors.Is(err, os.ErrNotExist) {
					t.Errorf("the refused start left %s (%v)", filepath.Base(f), err)
				}
			}
		})
	}
}

// A first upgrade that fails (here migration 1, on a database allowed too
// few pages for it) leaves the database as the message says it is: as it
// was, at schema version 0, with no schema_migrations table either; and it
// blames no development build, which never leaves a database at version 0.
func TestFailedFirstUpgradeLeavesNoTrace(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, DatabaseFile)
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=max_page_count(4)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)

	err = migrate(context.Background(), db)
	if err == nil {
		t.Fatal("migration 1 fitted in 4 pages")
	}
	for _, want := range []string{"migration 1:", "the database is as it was, at schema version 0"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the failure should say %q: %v", want, err)
		}
	}
	if strings.Contains(err.Error(), "development build") {
		t.Errorf("the failure blames a development build: %v", err)
	}
	var names []string
	rows, err := db.Query(`SELECT name FROM sqlite_master`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
	}
	rows.Close()
	if len(names) != 0 {
		t.Errorf("the rolled-back upgrade left %v in the database", names)
	}
}

// A database that records version 0 (schema_migrations, empty) and holds a
// table of vigil's schema: no build of vigil leaves one so, so migration 1's
// failure blames none, and still says, truly, that nothing changed.
func TestVersionZeroMismatchBlamesNoBuild(t *testing.T) {
	dir := foreignDataDir(t,
		`CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_ns INTEGER NOT NULL)`,
		`CREATE TABLE users(name TEXT)`)
	before := dumpDatabase(t, dir)

	srv, err := Open(Config{DataDir: dir})
	if err == nil {
		srv.Close()
		t.Fatal("migration 1 succeeded with users in its way")
	}
	for _, want := range []string{"migration 1:", "already exists", "the database is as it was, at schema version 0"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the failure should say %q: %v", want, err)
		}
	}
	if strings.Contains(err.Error(), "development build") {
		t.Errorf("the failure blames a development build: %v", err)
	}
	if after := dumpDatabase(t, dir); after != before {
		t.Errorf("the failed upgrade changed the database:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}
