package server

import (
	"net/http"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/webhook"
)

// Events queued for a receiver that the root quorum has since replaced go
// to the organization's current webhook, never again to the replaced URL
// (a quorum moving the webhook off a compromised receiver must not see a
// day of pending activity still sent there).
func TestQueuedWebhooksGoToTheCurrentURLNotTheReplacedOne(t *testing.T) {
	dir := t.TempDir()
	opts := WebhookOptions{Delivery: webhook.DelivererOptions{MaxAttempts: 1}, Requeue: time.Hour}
	e := newEnvWith(t, envOptions{threshold: 1, dataDir: dir, webhooks: opts})
	replaced, _ := newDownReceiver(t)
	current := newHookReceiver(t, func(r *http.Request, _ []byte) int { return http.StatusNoContent })
	alice := e.clients["alice"]
	mustComplete(t)(alice.SetOrganizationFeature(ctxT(t), api.SetOrganizationFeatureParams{Name: api.FeatureWebhook, Value: replaced.url}))
	queued := tags(t, alice, "queued", 2)
	// Each has failed once at the replaced receiver and now waits an hour.
	for replaced.requestCount() < 1+len(queued) {
		time.Sleep(5 * time.Millisecond)
	}
	moved := mustComplete(t)(alice.SetOrganizationFeature(ctxT(t), api.SetOrganizationFeatureParams{Name: api.FeatureWebhook, Value: current.url}))
	current.waitDelivered(t, completedEvent(moved))
	e.http.Close()
	if err := e.srv.Close(); err != nil {
		t.Fatal(err)
	}
	sentToReplaced := replaced.requestCount()

	// At start, events left pending are sent at once: to the current URL.
	again, err := Open(Config{DataDir: dir, Webhooks: opts})
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	current.waitDelivered(t, queued...)
	waitOutbox(t, again, WebhookOutboxStats{})
	if n := replaced.requestCount(); n != sentToReplaced {
		t.Errorf("the replaced receiver got %d more requests after the quorum moved the webhook", n-sentToReplaced)
	}
}

// An event being retried when the root quorum replaces the webhook URL goes
// to the new URL from its next attempt on, not to the replaced one until its
// stay in the delivery queue ends: the quorum moved the webhook off that
// receiver (leaked, or a host no longer theirs).
func TestRetriesGoToTheURLTheQuorumSetMeanwhile(t *testing.T) {
	// One stay lasts a minute of fast retries; after it the event would
	// wait an hour: only a retry sent to the new URL delivers it here.
	opts := WebhookOptions{Delivery: webhook.DelivererOptions{MaxAttempts: 1000, BaseBackoff: 5 * time.Millisecond,
		MaxBackoff: 10 * time.Millisecond, MaxEventAge: time.Minute}, Requeue: time.Hour}
	e := newEnvWith(t, envOptions{threshold: 1, webhooks: opts})
	replaced, _ := newDownReceiver(t)
	current := newHookReceiver(t, func(*http.Request, []byte) int { return http.StatusNoContent })
	alice := e.clients["alice"]
	mustComplete(t)(alice.SetOrganizationFeature(ctxT(t), api.SetOrganizationFeatureParams{Name: api.FeatureWebhook, Value: replaced.url}))
	retried := tags(t, alice, "retried", 1)
	for replaced.requestCount() < 4 { // retries under way
		time.Sleep(5 * time.Millisecond)
	}
	moved := mustComplete(t)(alice.SetOrganizationFeature(ctxT(t), api.SetOrganizationFeatureParams{Name: api.FeatureWebhook, Value: current.url}))
	atMove := replaced.requestCount()
	current.waitDelivered(t, append(retried, completedEvent(moved))...)
	waitOutbox(t, e.srv, WebhookOutboxStats{})
	// The events being retried at the move (the first URL change's and the
	// tag's) may each have one attempt past its URL read then, no more.
	if n := replaced.requestCount() - atMove; n > 2 {
		t.Errorf("the replaced receiver got %d requests after the quorum moved the webhook", n)
	}
}

// An event being retried when the root quorum removes the webhook is not
// sent again: it is kept as dead unsent, as a queued one is.
func TestRetriesStopWhenTheQuorumRemovesTheWebhook(t *testing.T) {
	opts := WebhookOptions{Delivery: webhook.DelivererOptions{MaxAttempts: 1000, BaseBackoff: 5 * time.Millisecond,
		MaxBackoff: 10 * time.Millisecond, MaxEventAge: time.Minute}, Requeue: time.Hour}
	e := newEnvWith(t, envOptions{threshold: 1, webhooks: opts})
	removed, _ := newDownReceiver(t)
	alice := e.clients["alice"]
	mustComplete(t)(alice.SetOrganizationFeature(ctxT(t), api.SetOrganizationFeatureParams{Name: api.FeatureWebhook, Value: removed.url}))
	tags(t, alice, "retried", 1)
	for removed.requestCount() < 4 {
		time.Sleep(5 * time.Millisecond)
	}
	mustComplete(t)(alice.SetOrganizationFeature(ctxT(t), api.SetOrganizationFeatureParams{Name: api.FeatureWebhook, Value: ""}))
	atRemoval := removed.requestCount()
	// The set URL's event and the tag's; the removal's own has no webhook.
	waitOutbox(t, e.srv, WebhookOutboxStats{Dead: 2})
	if n := removed.requestCount() - atRemoval; n > 2 {
		t.Errorf("the removed webhook's receiver got %d requests after the quorum removed it", n)
	}
}
