package server

import (
	"context"
	"database/sql"
	"log/slog"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/webhook"
)

// waitNoPending waits until srv's outbox has no pending event and returns
// its counts.
func waitNoPending(t *testing.T, srv *Server) WebhookOutboxStats {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		got, err := srv.WebhookOutbox(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if got.Pending == 0 {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("webhook outbox %+v: the event is still pending", got)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// An event older than the give-up age when the service starts again (it was
// down for three days), tried several times, is not sent: it becomes dead,
// as one given up. The receivers forget accepted ids after the give-up age
// (vigil webhook listen): one that accepted it before a crash would take it
// as a new event.
func TestWebhookOlderThanGiveUpIsNotSentAtRestart(t *testing.T) {
	dir := t.TempDir()
	opts := WebhookOptions{Delivery: webhook.DelivererOptions{MaxAttempts: minGiveUpAttempts, BaseBackoff: time.Millisecond, MaxBackoff: 5 * time.Millisecond}, Requeue: time.Hour}
	e := newEnvWith(t, envOptions{threshold: 1, dataDir: dir, webhooks: opts})
	rc, bringUp := newDownReceiver(t)
	alice := e.clients["alice"]
	id := completedEvent(mustComplete(t)(alice.SetOrganizationFeature(ctxT(t), api.SetOrganizationFeatureParams{Name: api.FeatureWebhook, Value: rc.url})))
	waitStays(t, e.srv, 1)
	e.http.Close()
	if err := e.srv.Close(); err != nil {
		t.Fatal(err)
	}
	// The service stays down for three days.
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
	again, err := Open(Config{DataDir: dir, Webhooks: opts})
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	st := waitNoPending(t, again)
	if n := rc.requestCount() - requests; n > 0 {
		t.Errorf("event %s, 72 hours after its status change (given up after %s), was sent %d more times at restart", id, DefaultWebhookGiveUpAfter, n)
	}
	if st.Dead != 1 {
		t.Errorf("outbox %+v: the event given up must be kept as dead", st)
	}
}

// A stay of several attempts that ends undelivered shortly before the
// give-up age does not requeue the event past it: the event is given up
// then (kept as dead), not sent later than the receivers remember ids.
func TestWebhookRequeueStopsAtGiveUp(t *testing.T) {
	giveUp := 2 * time.Second
	e := newEnvWith(t, envOptions{threshold: 1, webhooks: WebhookOptions{
		Delivery: webhook.DelivererOptions{MaxAttempts: minGiveUpAttempts, BaseBackoff: time.Millisecond, MaxBackoff: 5 * time.Millisecond},
		Requeue:  time.Hour, GiveUpAfter: giveUp}})
	rc := newHookReceiver(t, func(*http.Request, []byte) int { return http.StatusBadGateway })
	alice := e.clients["alice"]
	mustComplete(t)(alice.SetOrganizationFeature(ctxT(t), api.SetOrganizationFeatureParams{Name: api.FeatureWebhook, Value: rc.url}))
	// Its one stay fails at once; the next would be an hour later, past the
	// give-up age.
	st := waitNoPending(t, e.srv)
	if st.Dead != 1 {
		t.Errorf("outbox %+v: the event given up must be kept as dead", st)
	}
	if n := rc.requestCount(); n > minGiveUpAttempts {
		t.Errorf("the receiver got %d requests; one stay of %d attempts was allowed before the give-up age", n, minGiveUpAttempts)
	}
}

// Options that make the service send an event again later than receivers
// sized for the defaults remember ids ('vigil webhook listen') are said at
// Open, with the --remember the listener needs; the defaults say nothing.
func TestLongerWebhookHorizonIsLoggedWithTheListenersRemember(t *testing.T) {
	long := WebhookOptions{GiveUpAfter: 48 * time.Hour, Delivery: webhook.DelivererOptions{AttemptTimeout: 30 * time.Second}}
	if hz := long.RedeliveryHorizon(); hz != 48*time.Hour+30*time.Second {
		t.Errorf("RedeliveryHorizon of GiveUpAfter 48h and AttemptTimeout 30s: %s", hz)
	}
	if hz := (WebhookOptions{}).RedeliveryHorizon(); hz != WebhookRedeliveryHorizon {
		t.Errorf("RedeliveryHorizon of the defaults: %s, want WebhookRedeliveryHorizon %s", hz, WebhookRedeliveryHorizon)
	}
	for _, tc := range []struct {
		opts WebhookOptions
		want string
	}{{long, "--remember " + long.RedeliveryHorizon().String()}, {WebhookOptions{}, ""}} {
		var logs logBuffer
		srv, err := Open(Config{Webhooks: tc.opts, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
		if err != nil {
			t.Fatal(err)
		}
		srv.Close()
		got := logs.String()
		if tc.want != "" && !strings.Contains(got, tc.want) {
			t.Errorf("Open with %+v does not say the listener needs %q:\n%s", tc.opts, tc.want, got)
		}
		if tc.want == "" && strings.Contains(got, "--remember") {
			t.Errorf("Open with the defaults asks for a longer --remember:\n%s", got)
		}
	}
}
