package server

import (
	"context"
	"sync"
	"testing"
	"time"
)

// A key ring stored by a vigil that kept no record of when its active key
// took over counts as taking over at the first start that reads it, and that
// start is remembered: a later start measures the key's age from it.
func TestWebhookKeyStoredWithoutAStartTimeAgesFromTheFirstStartThatReadsIt(t *testing.T) {
	dir := t.TempDir()
	var mu sync.Mutex
	now := time.Date(2031, 3, 4, 5, 6, 7, 0, time.UTC)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	advance := func(d time.Duration) { mu.Lock(); defer mu.Unlock(); now = now.Add(d) }
	open := func() *Server {
		t.Helper()
		srv, err := Open(Config{DataDir: dir, Now: clock})
		if err != nil {
			t.Fatal(err)
		}
		return srv
	}

	srv := open()
	kid := srv.ActiveWebhookKeyID()
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	// Make the store look like an older vigil's: the ring, no start time.
	ctx := context.Background()
	db, err := openStore(ctx, dir, nil, nil, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	err = db.inTx(ctx, func(tx *txn) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM service_state WHERE key = ?`, stateWebhookKeyStart)
		return err
	})
	if cerr := db.close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}

	advance(48 * time.Hour) // the old key's real age is unknown
	srv = open()
	if got := srv.ActiveWebhookKeyID(); got != kid {
		t.Fatalf("active key %s after reopening, want the stored %s", got, kid)
	}
	if age := srv.WebhookKeyAge(); age != 0 {
		t.Fatalf("a stored key with no start time is %s old at the start that first reads it, want 0", age)
	}
	srv.Close()
	advance(3 * time.Hour)
	srv = open()
	defer srv.Close()
	if age := srv.WebhookKeyAge(); age != 3*time.Hour {
		t.Fatalf("reopened 3h after the first start that read the key, its age is %s, want 3h", age)
	}
}
