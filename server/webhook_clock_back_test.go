package server

import (
	"net/http"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/webhook"
)

// A backward step of the service clock after an event's first attempt does
// not stretch, in real time, how long copies of it are sent: a receiver
// remembers ids for the redelivery horizon after its first copy, on its own
// running clock, and would take a copy sent later for a new event. With the
// clock stepped back 2 hours, the event is given up when 24 hours have
// passed since its first attempt, although the clock reads 2 hours less.
func TestWebhookClockStepBackDoesNotStretchTheRedeliveryHorizon(t *testing.T) {
	e := newEnvWith(t, envOptions{threshold: 1, webhooks: WebhookOptions{Requeue: time.Second, MaxRequeue: time.Second,
		Delivery: webhook.DelivererOptions{MaxAttempts: 1}}})
	var lastSigned, oldestSigned atomic.Int64 // X-Service-Timestamp, ms
	rc := newHookReceiver(t, func(r *http.Request, _ []byte) int {
		if ms, err := strconv.ParseInt(r.Header.Get(webhook.HeaderTimestamp), 10, 64); err == nil {
			oldestSigned.CompareAndSwap(0, ms)
			for {
				old := oldestSigned.Load()
				if ms >= old || oldestSigned.CompareAndSwap(old, ms) {
					break
				}
			}
			for {
				old := lastSigned.Load()
				if ms <= old || lastSigned.CompareAndSwap(old, ms) {
					break
				}
			}
		}
		return http.StatusServiceUnavailable
	})
	alice := e.clients["alice"]
	id := completedEvent(mustComplete(t)(alice.SetOrganizationFeature(ctxT(t), api.SetOrganizationFeatureParams{Name: api.FeatureWebhook, Value: rc.url})))
	firstSent := func() int64 {
		var at int64
		e.srv.db.read.QueryRowContext(ctxT(t), `SELECT first_sent_ns FROM webhook_outbox WHERE event_id = ?`, id).Scan(&at)
		return at
	}
	pollUntil(t, func() bool { return rc.requestCount() >= 1 && firstSent() != 0 }, "the first attempt")
	first := time.Unix(0, firstSent())

	const step = 2 * time.Hour
	e.skew.Store(int64(-step))
	pollUntil(t, func() bool { return oldestSigned.Load() < first.Add(-step/2).UnixMilli() }, "a copy sent on the clock stepped back")

	// 24 hours and a minute after the first attempt, in real time.
	jump := DefaultWebhookGiveUpAfter - step + time.Minute
	e.skew.Store(int64(jump))
	after := time.Now().Add(jump).UnixMilli()
	deadline := time.Now().Add(20 * time.Second)
	for {
		if ms := lastSigned.Load(); ms >= after {
			t.Fatalf("event %s sent again %s after its first attempt in real time (the clock stepped back %s meanwhile): a receiver has forgotten its id by then",
				id, time.UnixMilli(ms).Sub(first)+step, step)
		}
		var state string
		e.srv.db.read.QueryRowContext(ctxT(t), `SELECT state FROM webhook_outbox WHERE event_id = ?`, id).Scan(&state)
		if state == "dead" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("event %s neither given up nor sent again (state %q, %d requests, last signed %s)", id, state, rc.requestCount(), time.UnixMilli(lastSigned.Load()).Sub(first))
		}
		time.Sleep(10 * time.Millisecond)
	}
}
