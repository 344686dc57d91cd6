package server

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
)

// A full disk at the commit is answered STORAGE_FAILED (nothing recorded, the
// client may send again without fearing a duplicate), as docs/local-service.md
// says; only other commit failures leave the outcome unknown.
func TestDiskFullAtCommitIsAnsweredNothingRecorded(t *testing.T) {
	ctx := context.Background()
	// A real SQLITE_FULL: a database that may not grow past its pages.
	db, err := sql.Open("sqlite", "file:"+uriPath(filepath.Join(t.TempDir(), "full.db")))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if _, err := db.ExecContext(ctx, `CREATE TABLE t(b BLOB)`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, `PRAGMA max_page_count = 3`); err != nil {
		t.Fatal(err)
	}
	_, full := db.ExecContext(ctx, `INSERT INTO t VALUES (zeroblob(100000))`)
	se := asStorageError(full, true)
	if se == nil {
		t.Fatalf("%v is not taken for a storage failure", full)
	}
	if got := se.reply().ErrorCode; got != "STORAGE_FAILED" {
		t.Fatalf("a full disk at the commit (%v) is answered %s, want STORAGE_FAILED", full, got)
	}
}
