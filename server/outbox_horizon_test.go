package server

import (
	"database/sql"
	"net/http"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/webhook"
)

// stopWithOneEventPending queues one event whose single attempt the receiver
// processes but answers too late (its answer lost), stops the service, lets
// edit change the stored row, and reopens the service on the same data, its
// clock later by stopped.
func stopWithOneEventPending(t *testing.T, stopped time.Duration, edit func(db *sql.DB)) (rc *hookReceiver, before int, again *Server) {
	t.Helper()
	dir := t.TempDir()
	opts := WebhookOptions{Delivery: webhook.DelivererOptions{MaxAttempts: 1, AttemptTimeout: 100 * time.Millisecond}, Requeue: time.Hour}
	e := newEnvWith(t, envOptions{threshold: 1, dataDir: dir, webhooks: opts})
	var slow atomic.Bool
	slow.Store(true)
	rc = newHookReceiver(t, func(*http.Request, []byte) int {
		if slow.Load() {
			time.Sleep(300 * time.Millisecond) // processed; the answer comes too late
		}
		return http.StatusOK
	})
	mustComplete(t)(e.clients["alice"].SetOrganizationFeature(ctxT(t), api.SetOrganizationFeatureParams{Name: api.FeatureWebhook, Value: rc.url}))
	waitStays(t, e.srv, 1)
	e.http.Close()
	if err := e.srv.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", filepath.Join(dir, DatabaseFile))
	if err != nil {
		t.Fatal(err)
	}
	edit(db)
	db.Close()
	slow.Store(false)
	before = rc.requestCount()
	again, err = Open(Config{DataDir: dir, Webhooks: opts, Now: func() time.Time { return time.Now().Add(stopped) }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { again.Close() })
	return rc, before, again
}

// An event whose one attempt the receiver may have had (its answer was
// lost) and that the service left pending through a three-day stop is not
// sent again: the receiver forgets ids WebhookRedeliveryHorizon after the
// first copy and would take it as a new event. It is kept as dead.
func TestWebhookAttemptedEventIsNotSentPastTheRedeliveryHorizon(t *testing.T) {
	rc, before, again := stopWithOneEventPending(t, 72*time.Hour, func(*sql.DB) {})
	waitOutbox(t, again, WebhookOutboxStats{Dead: 1})
	if n := rc.requestCount() - before; n > 0 {
		t.Fatalf("the receiver may already have the event; 72 hours later, past the %s redelivery horizon, it was sent %d more time(s)",
			WebhookRedeliveryHorizon, n)
	}
}

// An event never attempted, pending for 48 hours (a stopped service, a
// forward clock jump), is still sent: no earlier copy exists.
func TestWebhookNeverAttemptedEventIsSentLate(t *testing.T) {
	rc, before, again := stopWithOneEventPending(t, 48*time.Hour, func(db *sql.DB) {
		// As the service stored it before its first attempt.
		if _, err := db.Exec(`UPDATE webhook_outbox SET attempts = 0, stays = 0, first_sent_ns = 0, next_attempt_ns = created_ns`); err != nil {
			t.Fatal(err)
		}
	})
	waitOutbox(t, again, WebhookOutboxStats{})
	if n := rc.requestCount() - before; n != 1 {
		t.Fatalf("an event never attempted, pending 48 hours, was sent %d time(s), want once", n)
	}
}
