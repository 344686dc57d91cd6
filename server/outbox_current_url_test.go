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
