package server

import (
	"testing"
)

// A long read by another process keeps checkpoints from emptying
// vigil.db-wal; journal_size_limit lets the writer cut the WAL back once it
// restarts instead of keeping its peak size until shutdown. The limit must
// stay above the size the autocheckpoint lets the WAL reach, or every
// restart of the WAL would truncate and regrow the file. (Growing the WAL
// past the limit for real writes too much for a unit test.)
func TestWriterBoundsWALSize(t *testing.T) {
	e := newEnvWith(t, envOptions{threshold: 2, dataDir: t.TempDir()})
	ctx := ctxT(t)
	var limit, pages, pageSize int64
	for q, v := range map[string]*int64{`PRAGMA journal_size_limit`: &limit, `PRAGMA wal_autocheckpoint`: &pages, `PRAGMA page_size`: &pageSize} {
		if err := e.srv.db.writeDB.QueryRowContext(ctx, q).Scan(v); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if limit < 0 {
		t.Fatal("the writer sets no journal_size_limit: a WAL grown under a long outside reader keeps its peak size until shutdown")
	}
	if usual := pages * pageSize; limit < usual {
		t.Errorf("journal_size_limit %d is below the %d bytes the autocheckpoint lets the WAL reach: every WAL restart would truncate it", limit, usual)
	}
}
