package cli

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/vigil-console/vigil/server"
)

// A service restarted more often than --webhook-key-rotation still rotates:
// the key's age is kept with the key ring, so a start after the interval has
// passed rotates at once, and one before it waits only for what remains.
func TestWebhookKeyRotationKeepsItsScheduleAcrossRestarts(t *testing.T) {
	const every = time.Hour
	dir := t.TempDir()
	var mu sync.Mutex
	now := time.Date(2031, 3, 4, 5, 6, 7, 0, time.UTC)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	advance := func(d time.Duration) { mu.Lock(); defer mu.Unlock(); now = now.Add(d) }
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	ctx := context.Background()

	// start opens the data directory the way `vigil serve --webhook-key-rotation
	// 1h` does at start, and returns the active key and the wait before the
	// next rotation.
	start := func() (kid string, next time.Duration) {
		t.Helper()
		srv, err := server.Open(server.Config{DataDir: dir, Logger: log, Now: clock})
		if err != nil {
			t.Fatal(err)
		}
		defer func() {
			if err := srv.Close(); err != nil {
				t.Fatal(err)
			}
		}()
		next = catchUpWebhookKeyRotation(ctx, srv, every, log)
		return srv.ActiveWebhookKeyID(), next
	}

	first, next := start()
	if next != every {
		t.Fatalf("a fresh key's first rotation is due in %s, want %s", next, every)
	}
	advance(20 * time.Minute)
	if kid, next := start(); kid != first || next != 40*time.Minute {
		t.Fatalf("restarted 20 min into a 1h rotation: key %s (was %s), next rotation in %s; want the same key, due in 40m", kid, first, next)
	}
	advance(50 * time.Minute) // 70 min since the first key took over, across restarts
	second, next := start()
	if second == first {
		t.Fatalf("restarted 70 min after key %s took over with rotation every %s: still the same key", first, every)
	}
	if next != every {
		t.Fatalf("just rotated at start, next rotation in %s, want %s", next, every)
	}
	advance(30 * time.Minute)
	if kid, next := start(); kid != second || next != 30*time.Minute {
		t.Fatalf("restarted 30 min after rotating at start: key %s (want %s, kept), next rotation in %s, want 30m", kid, second, next)
	}
}
