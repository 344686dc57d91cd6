package server

import (
	"context"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/webhook"
)

// waitStays waits until srv's outbox has a pending event that has ended n
// stays undelivered, its outcome stored.
func waitStays(t *testing.T, srv *Server, n int) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		var stays int
		if err := srv.db.read.QueryRowContext(context.Background(), `SELECT COALESCE(MAX(stays), 0) FROM webhook_outbox WHERE state = 'pending'`).Scan(&stays); err != nil {
			t.Fatal(err)
		}
		if stays >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("no pending webhook event has ended %d stays", n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// queueFailed completes an activity whose event the receiver (down until
// bringUp) refuses, and returns once its first stay is stored as failed.
func queueFailed(t *testing.T, opts WebhookOptions) (e *testEnv, rc *hookReceiver, id string, bringUp func()) {
	t.Helper()
	e = newEnvWith(t, envOptions{threshold: 1, webhooks: opts})
	rc, bringUp = newDownReceiver(t)
	id = completedEvent(mustComplete(t)(e.clients["alice"].SetOrganizationFeature(ctxT(t),
		api.SetOrganizationFeatureParams{Name: api.FeatureWebhook, Value: rc.url})))
	waitStays(t, e.srv, 1)
	return e, rc, id, bringUp
}

// A forward jump of the service clock past the give-up age gives up an
// event tried once: its receiver may have had that attempt and forgets ids
// the redelivery horizon after it. (One never attempted is still sent:
// TestWebhookNeverAttemptedEventIsSentLate.)
func TestWebhookForwardClockJumpGivesUpAnEventTriedOnce(t *testing.T) {
	e, rc, id, bringUp := queueFailed(t, WebhookOptions{Delivery: webhook.DelivererOptions{MaxAttempts: 1}, Requeue: time.Hour})
	bringUp()
	requests := rc.requestCount()
	e.skew.Store(int64(48 * time.Hour))
	e.srv.hooks.poke()
	waitOutbox(t, e.srv, WebhookOutboxStats{Dead: 1})
	if n := rc.requestCount() - requests; n > 0 {
		t.Errorf("event %s, first tried 48 hours ago on the service clock, was sent %d more times", id, n)
	}
}

// A backward step of the service clock does not delay a retry by the step:
// the event waits its requeue wait from the clock's new reading, not from
// its old one.
func TestWebhookBackwardClockStepDoesNotDelayARetry(t *testing.T) {
	e, rc, id, bringUp := queueFailed(t, WebhookOptions{Delivery: webhook.DelivererOptions{MaxAttempts: 1}, Requeue: 3 * time.Second})
	e.skew.Store(int64(-10 * time.Hour))
	bringUp()
	rc.waitDelivered(t, id)
	waitOutbox(t, e.srv, WebhookOutboxStats{})
}

// An event that failed several attempts and is past the give-up age on the
// service clock is given up as before: kept as dead, not sent again.
func TestWebhookTriedSeveralTimesIsGivenUpPastTheAge(t *testing.T) {
	e, rc, id, _ := queueFailed(t, WebhookOptions{Delivery: webhook.DelivererOptions{
		MaxAttempts: 3, BaseBackoff: time.Millisecond, MaxBackoff: 5 * time.Millisecond}, Requeue: time.Hour})
	requests := rc.requestCount()
	e.skew.Store(int64(DefaultWebhookGiveUpAfter + time.Hour))
	e.srv.hooks.poke()
	waitOutbox(t, e.srv, WebhookOutboxStats{Dead: 1})
	if n := rc.requestCount() - requests; n > 0 {
		t.Errorf("event %s, tried %d times and past its give-up age, was sent %d more times", id, minGiveUpAttempts, n)
	}
}
