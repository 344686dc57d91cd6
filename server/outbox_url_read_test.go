package server

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/webhook"
)

// failingURLReads makes srv's reads of webhook URLs fail while fail is set,
// counting them. Set before delivery starts (Config.HoldWebhooks).
func failingURLReads(srv *Server, fail *atomic.Bool, reads *atomic.Int32) {
	stored := srv.hooks.readWebhookURL
	srv.hooks.readWebhookURL = func(ctx context.Context, org string) (string, error) {
		reads.Add(1)
		if fail.Load() {
			return "", errors.New("disk I/O error (injected)")
		}
		return stored(ctx, org)
	}
}

// queueUndelivered leaves one event pending in the outbox of a service on
// dir, its receiver down, and returns the receiver, the event's id and the
// function that brings the receiver up.
func queueUndelivered(t *testing.T, dir string, opts WebhookOptions) (*hookReceiver, string, func()) {
	t.Helper()
	e := newEnvWith(t, envOptions{threshold: 1, dataDir: dir, webhooks: opts})
	rc, bringUp := newDownReceiver(t)
	id := completedEvent(mustComplete(t)(e.clients["alice"].SetOrganizationFeature(ctxT(t),
		api.SetOrganizationFeatureParams{Name: api.FeatureWebhook, Value: rc.url})))
	for rc.requestCount() < 1 {
		time.Sleep(5 * time.Millisecond)
	}
	e.http.Close()
	if err := e.srv.Close(); err != nil {
		t.Fatal(err)
	}
	return rc, id, bringUp
}

// reopenFailingURLReads opens the service in dir again and starts its
// webhooks with every read of a webhook URL failing until fail is cleared;
// reads counts them.
func reopenFailingURLReads(t *testing.T, dir string, opts WebhookOptions) (srv *Server, fail *atomic.Bool, reads *atomic.Int32) {
	t.Helper()
	srv, err := Open(Config{DataDir: dir, Webhooks: opts, HoldWebhooks: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	fail, reads = new(atomic.Bool), new(atomic.Int32)
	fail.Store(true)
	failingURLReads(srv, fail, reads)
	srv.StartWebhooks()
	return srv, fail, reads
}

// An event past its give-up age, tried several times, is given up (kept as
// dead, unsent) even
// while its organization's webhook URL cannot be read: the receivers'
// memory of ids relies on no event staying pending longer.
func TestWebhookPastGiveUpIsGivenUpWhenItsURLCannotBeRead(t *testing.T) {
	dir := t.TempDir()
	// Tried minGiveUpAttempts times: one tried less is sent late, not given up.
	opts := WebhookOptions{Delivery: webhook.DelivererOptions{MaxAttempts: minGiveUpAttempts, BaseBackoff: time.Millisecond, MaxBackoff: 5 * time.Millisecond}, Requeue: time.Hour}
	rc, id, bringUp := queueUndelivered(t, dir, opts)
	db, err := sql.Open("sqlite", filepath.Join(dir, DatabaseFile))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`UPDATE webhook_outbox SET created_ns = ?`, time.Now().Add(-72*time.Hour).UnixNano()); err != nil {
		t.Fatal(err)
	}
	db.Close()
	bringUp()
	requests := rc.requestCount()

	again, _, _ := reopenFailingURLReads(t, dir, opts)
	st := waitNoPending(t, again)
	if st.Dead != 1 {
		t.Errorf("outbox %+v: event %s, 72 hours old, must be kept as dead", st, id)
	}
	if n := rc.requestCount() - requests; n > 0 {
		t.Errorf("event %s was sent %d times after its give-up", id, n)
	}
}

// While its organization's webhook URL cannot be read, an event younger
// than the give-up age is neither sent nor lost: it stays pending, and is
// delivered once the URL can be read again.
func TestWebhookWaitsWhileItsURLCannotBeRead(t *testing.T) {
	dir := t.TempDir()
	opts := WebhookOptions{Delivery: webhook.DelivererOptions{MaxAttempts: 1}, Requeue: time.Hour}
	rc, id, bringUp := queueUndelivered(t, dir, opts)
	bringUp()
	requests := rc.requestCount()

	again, fail, reads := reopenFailingURLReads(t, dir, opts)
	for reads.Load() < 2 { // read, failed, and tried again
		time.Sleep(5 * time.Millisecond)
	}
	st, err := again.WebhookOutbox(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	if st.Pending != 1 || st.Dead != 0 {
		t.Errorf("outbox %+v while the URL cannot be read: the event must stay pending", st)
	}
	if n := rc.requestCount() - requests; n > 0 {
		t.Errorf("event %s was sent %d times while its URL could not be read", id, n)
	}
	fail.Store(false)
	rc.waitDelivered(t, id)
	waitOutbox(t, again, WebhookOutboxStats{})
}

// An event being retried when its organization's webhook URL cannot be read
// any more is not sent to the URL of its previous attempt: its stay ends
// and it stays pending, delivered once the URL can be read.
func TestWebhookRetryWaitsWhileItsURLCannotBeRead(t *testing.T) {
	opts := WebhookOptions{Delivery: webhook.DelivererOptions{MaxAttempts: 1000, BaseBackoff: 5 * time.Millisecond,
		MaxBackoff: 10 * time.Millisecond, MaxEventAge: time.Minute}, Requeue: 20 * time.Millisecond, MaxRequeue: 20 * time.Millisecond}
	e := newEnvWith(t, envOptions{threshold: 1, webhooks: opts, holdWebhooks: true})
	srv := e.srv
	var fail atomic.Bool
	var reads atomic.Int32
	failingURLReads(srv, &fail, &reads)
	srv.StartWebhooks()
	rc, bringUp := newDownReceiver(t)
	id := completedEvent(mustComplete(t)(e.clients["alice"].SetOrganizationFeature(ctxT(t),
		api.SetOrganizationFeatureParams{Name: api.FeatureWebhook, Value: rc.url})))
	for rc.requestCount() < 2 {
		time.Sleep(5 * time.Millisecond)
	}
	fail.Store(true)
	failedAt := reads.Load()
	for reads.Load() < failedAt+2 {
		time.Sleep(5 * time.Millisecond)
	}
	requests := rc.requestCount()
	bringUp()
	for reads.Load() < failedAt+4 {
		time.Sleep(5 * time.Millisecond)
	}
	if st, err := srv.WebhookOutbox(ctxT(t)); err != nil || st.Pending != 1 {
		t.Errorf("outbox %+v (%v) while the URL cannot be read: the event must stay pending", st, err)
	}
	// At most the attempt past its read when reads began to fail.
	if n := rc.requestCount() - requests; n > 1 {
		t.Errorf("event %s was sent %d times while its URL could not be read", id, n)
	}
	fail.Store(false)
	rc.waitDelivered(t, id)
	waitOutbox(t, srv, WebhookOutboxStats{})
}
