package server

import (
	"context"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/webhook"
)

// The first attempt of an event is recorded when its request starts, not
// when it is handed to the deliverer, where it may wait for its
// organization's request slot: an event that only waited was never sent,
// and is not given up as one "whose first attempt the receiver may have
// had" (docs/webhooks.md: a forward jump of the service's clock "gives up
// nothing unsent").

// secondWaitsForTheSlot makes alice's webhook rc (held, one request slot),
// puts a first event on the wire and a second in the deliverer behind it,
// and returns both ids once the second waits there unsent.
func secondWaitsForTheSlot(t *testing.T, e *testEnv, rc *hookReceiver) (first, second string) {
	t.Helper()
	alice := e.clients["alice"]
	first = completedEvent(mustComplete(t)(alice.SetOrganizationFeature(ctxT(t), api.SetOrganizationFeatureParams{Name: api.FeatureWebhook, Value: rc.url})))
	pollUntil(t, func() bool { return rc.requestCount() == 1 }, "the first event on the wire")
	second = tags(t, alice, "audit", 1)[0]
	pollUntil(t, func() bool { return e.srv.hooks.deliverer.Stats().InProgress == 2 }, "the second event handed to the deliverer")
	if rc.requestCount() != 1 {
		t.Fatalf("the second event was sent while the first held the only request slot")
	}
	return first, second
}

// waitSentNotGivenUp waits until rc has event id, failing at once if srv
// gives it up.
func waitSentNotGivenUp(t *testing.T, srv *Server, rc *hookReceiver, id, when string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		rc.mu.Lock()
		got := rc.delivered[id]
		rc.mu.Unlock()
		if got > 0 {
			return
		}
		var state, lastErr string
		var attempts int
		srv.db.read.QueryRowContext(context.Background(), `SELECT state, attempts, last_error FROM webhook_outbox WHERE event_id = ?`, id).Scan(&state, &attempts, &lastErr)
		if state == "dead" {
			t.Fatalf("event %s, never sent to anyone, was given up %s: attempts %d, last_error %q", id, when, attempts, lastErr)
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("event %s never delivered", id)
}

func pollUntil(t *testing.T, cond func() bool, what string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// A forward jump of the service clock past the give-up age while an event
// waits for its organization's request slot: it is sent late, not given up.
func TestWebhookClockJumpWhileWaitingForASlotSendsTheEventLate(t *testing.T) {
	e := newEnvWith(t, envOptions{threshold: 1, webhooks: WebhookOptions{Requeue: time.Second, MaxRequeue: time.Second, Delivery: webhook.DelivererOptions{OrgConcurrency: 1}}})
	rc, release := newHeldReceiver(t)
	first, second := secondWaitsForTheSlot(t, e, rc)
	e.skew.Store(int64(DefaultWebhookGiveUpAfter + time.Hour))
	release()
	rc.waitDelivered(t, first)
	waitSentNotGivenUp(t, e.srv, rc, second, "after a forward clock jump")
}

// A stop while an event waits for its organization's request slot counts
// no attempt and records no first attempt: a start two days later still
// sends it, as any event never attempted
// (TestWebhookNeverAttemptedEventIsSentLate).
func TestWebhookStopWhileWaitingForASlotThenLongStopSendsTheEvent(t *testing.T) {
	dir := t.TempDir()
	opts := WebhookOptions{Delivery: webhook.DelivererOptions{OrgConcurrency: 1}}
	e := newEnvWith(t, envOptions{threshold: 1, dataDir: dir, webhooks: opts})
	rc, release := newHeldReceiver(t)
	_, second := secondWaitsForTheSlot(t, e, rc)
	e.http.Close()
	if err := e.srv.Close(); err != nil {
		t.Fatal(err)
	}
	if rc.requestCount() != 1 {
		t.Fatalf("the second event was sent before the stop")
	}
	release()
	again, err := Open(Config{DataDir: dir, Webhooks: opts, HoldWebhooks: true, Now: func() time.Time { return time.Now().Add(48 * time.Hour) }})
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	var attempts int
	var firstSent int64
	if err := again.db.read.QueryRowContext(ctxT(t), `SELECT attempts, first_sent_ns FROM webhook_outbox WHERE event_id = ?`, second).Scan(&attempts, &firstSent); err != nil {
		t.Fatal(err)
	}
	if attempts != 0 || firstSent != 0 {
		t.Errorf("after the stop, the never sent event has %d attempts and first attempt %d, want none", attempts, firstSent)
	}
	again.StartWebhooks()
	waitSentNotGivenUp(t, again, rc, second, "at the start after a 48-hour stop")
}
