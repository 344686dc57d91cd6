package server

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/webhook"
)

// hookReceiver is a webhook receiver that answers each request with the
// status answer gives it and records the event ids it accepted (2xx).
type hookReceiver struct {
	url       string
	mu        sync.Mutex
	requests  int
	delivered map[string]int // event id -> accepted deliveries
}

func newHookReceiver(t *testing.T, answer func(r *http.Request, body []byte) int) *hookReceiver {
	t.Helper()
	rc := &hookReceiver{delivered: map[string]int{}}
	rc.url = httpServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		rc.requests++
		rc.mu.Unlock()
		status := answer(r, body)
		if status/100 == 2 {
			rc.mu.Lock()
			rc.delivered[r.Header.Get(webhook.HeaderEventID)]++
			rc.mu.Unlock()
		}
		w.WriteHeader(status)
	})) + "/hook"
	return rc
}

// newDownReceiver is a receiver that answers 502 (down) until bringUp is
// called, then 204.
func newDownReceiver(t *testing.T) (rc *hookReceiver, bringUp func()) {
	t.Helper()
	var up atomic.Bool
	rc = newHookReceiver(t, func(*http.Request, []byte) int {
		if up.Load() {
			return http.StatusNoContent
		}
		return http.StatusBadGateway
	})
	return rc, func() { up.Store(true) }
}

// newHeldReceiver is a receiver that holds every request unanswered until
// release is called (then answers 200); the test's end releases it.
func newHeldReceiver(t *testing.T) (rc *hookReceiver, release func()) {
	t.Helper()
	hold := make(chan struct{})
	release = sync.OnceFunc(func() { close(hold) })
	t.Cleanup(release)
	rc = newHookReceiver(t, func(r *http.Request, _ []byte) int {
		select {
		case <-hold:
		case <-r.Context().Done():
		}
		return http.StatusOK
	})
	return rc, release
}

func (rc *hookReceiver) requestCount() int {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return rc.requests
}

// waitDelivered waits until every event id in ids has been accepted.
func (rc *hookReceiver) waitDelivered(t *testing.T, ids ...string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		rc.mu.Lock()
		missing := slices.DeleteFunc(slices.Clone(ids), func(id string) bool { return rc.delivered[id] > 0 })
		rc.mu.Unlock()
		if len(missing) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("events %v never delivered", missing)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// waitOutbox waits until the outbox counts are want.
func waitOutbox(t *testing.T, srv *Server, want WebhookOutboxStats) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		got, err := srv.WebhookOutbox(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if got == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("webhook outbox %+v, want %+v", got, want)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func completedEvent(a *api.Activity) string { return a.ID + ":" + a.Status }

// tags completes n create_user_tag activities and returns their event ids.
func tags(t *testing.T, c *api.Client, prefix string, n int) []string {
	t.Helper()
	var ids []string
	for i := range n {
		a := mustComplete(t)(c.CreateUserTag(ctxT(t), api.CreateUserTagParams{UserTagName: fmt.Sprintf("%s-%d", prefix, i)}))
		ids = append(ids, completedEvent(a))
	}
	return ids
}

// A receiver down for longer than an event may stay in the delivery queue
// (MaxEventAge) still gets the event once it is back, signed by the
// service's key, and the outbox keeps nothing once it is delivered.
func TestWebhookOutlivesAQueueStay(t *testing.T) {
	const maxEventAge = 40 * time.Millisecond
	logs := &logBuffer{}
	e := newEnvWith(t, envOptions{threshold: 1, log: logs, webhooks: WebhookOptions{
		Delivery: webhook.DelivererOptions{MaxEventAge: maxEventAge, BaseBackoff: 5 * time.Millisecond, MaxBackoff: 10 * time.Millisecond, MaxAttempts: 1000},
		Requeue:  10 * time.Millisecond, MaxRequeue: 20 * time.Millisecond,
	}})
	jwks := webhook.NewJWKSCache(e.http.URL+api.JWKSPath, nil, nil)
	var mu sync.Mutex
	var firstRequest time.Time
	var verifyErr error
	rc := newHookReceiver(t, func(r *http.Request, body []byte) int {
		mu.Lock()
		defer mu.Unlock()
		if firstRequest.IsZero() {
			firstRequest = time.Now()
		}
		if time.Since(firstRequest) < 5*maxEventAge {
			return http.StatusServiceUnavailable
		}
		_, verifyErr = webhook.VerifyContext(r.Context(), r.Header, body, jwks, time.Now(), 0)
		return http.StatusOK
	})
	a := mustComplete(t)(e.clients["alice"].SetOrganizationFeature(ctxT(t), api.SetOrganizationFeatureParams{Name: api.FeatureWebhook, Value: rc.url}))
	rc.waitDelivered(t, completedEvent(a))
	mu.Lock()
	if verifyErr != nil {
		t.Fatalf("delivery does not verify: %v", verifyErr)
	}
	mu.Unlock()
	waitOutbox(t, e.srv, WebhookOutboxStats{})
	if !strings.Contains(logs.String(), "queued again later") {
		t.Fatalf("the event was delivered within one queue stay; the test did not outlast MaxEventAge:\n%s", logs.String())
	}
}

// Events still pending when the service stops are delivered by the next
// start on the same data, even those waiting for a retry far ahead.
func TestWebhookOutboxSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	opts := WebhookOptions{Delivery: webhook.DelivererOptions{MaxAttempts: 1}, Requeue: time.Hour}
	e := newEnvWith(t, envOptions{threshold: 1, dataDir: dir, webhooks: opts})
	rc, bringUp := newDownReceiver(t)
	alice := e.clients["alice"]
	ids := []string{completedEvent(mustComplete(t)(alice.SetOrganizationFeature(ctxT(t), api.SetOrganizationFeatureParams{Name: api.FeatureWebhook, Value: rc.url})))}
	ids = append(ids, tags(t, alice, "before-restart", 2)...)
	// Each event has failed once and now waits an hour.
	for rc.requestCount() < len(ids) {
		time.Sleep(5 * time.Millisecond)
	}
	e.http.Close()
	if err := e.srv.Close(); err != nil {
		t.Fatal(err)
	}

	bringUp()
	again, err := Open(Config{DataDir: dir, Webhooks: opts})
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	rc.waitDelivered(t, ids...)
	waitOutbox(t, again, WebhookOutboxStats{})
}

// An organization whose receiver never answers holds its own share of the
// delivery queue and no more: its other events wait in the outbox, and a
// healthy organization's event is delivered meanwhile. Once the receiver
// answers, every one of its events arrives.
func TestWebhookHungOrganizationDoesNotDelayOthers(t *testing.T) {
	e := newEnvWith(t, envOptions{threshold: 1, webhooks: WebhookOptions{
		Delivery: webhook.DelivererOptions{QueueSize: 4, OrgQueueSize: 2, OrgConcurrency: 1, AttemptTimeout: time.Minute},
	}})
	hung, release := newHeldReceiver(t)
	healthy := newHookReceiver(t, func(*http.Request, []byte) int { return http.StatusOK })

	alice := e.clients["alice"]
	hungIDs := []string{completedEvent(mustComplete(t)(alice.SetOrganizationFeature(ctxT(t), api.SetOrganizationFeatureParams{Name: api.FeatureWebhook, Value: hung.url})))}
	hungIDs = append(hungIDs, tags(t, alice, "while-hung", 6)...)

	zedKey := e.newKey("zed")
	other, err := e.srv.CreateOrganization(ctxT(t), "Other Org", 1, []UserSpec{{Name: "zed", Root: true,
		APIKeys: []APIKeySpec{{Name: "zed key", PublicKey: zedKey.PublicKeyHex(), CredentialType: zedKey.CredentialType()}}}})
	if err != nil {
		t.Fatal(err)
	}
	zed, err := api.NewClient(e.http.URL, other.ID, zedKey)
	if err != nil {
		t.Fatal(err)
	}
	healthyIDs := []string{completedEvent(mustComplete(t)(zed.SetOrganizationFeature(ctxT(t), api.SetOrganizationFeatureParams{Name: api.FeatureWebhook, Value: healthy.url})))}
	healthyIDs = append(healthyIDs, tags(t, zed, "healthy", 3)...)
	healthy.waitDelivered(t, healthyIDs...)
	if n := hung.requestCount(); n > 1 {
		t.Fatalf("the hung receiver got %d requests at once, more than its organization's 1 request slot", n)
	}

	release()
	hung.waitDelivered(t, hungIDs...)
	waitOutbox(t, e.srv, WebhookOutboxStats{})
}

// More events than the whole delivery queue holds: none is refused and lost,
// they wait in the outbox and all arrive.
func TestWebhookQueueFullLosesNothing(t *testing.T) {
	logs := &logBuffer{}
	e := newEnvWith(t, envOptions{threshold: 1, log: logs, webhooks: WebhookOptions{
		Delivery: webhook.DelivererOptions{QueueSize: 1},
	}})
	hold := make(chan struct{})
	release := sync.OnceFunc(func() { close(hold) })
	t.Cleanup(release)
	rc := newHookReceiver(t, func(*http.Request, []byte) int { <-hold; return http.StatusOK })
	alice := e.clients["alice"]
	ids := []string{completedEvent(mustComplete(t)(alice.SetOrganizationFeature(ctxT(t), api.SetOrganizationFeatureParams{Name: api.FeatureWebhook, Value: rc.url})))}
	ids = append(ids, tags(t, alice, "burst", 5)...)
	waitOutbox(t, e.srv, WebhookOutboxStats{Pending: len(ids)})
	release()
	rc.waitDelivered(t, ids...)
	waitOutbox(t, e.srv, WebhookOutboxStats{})
	if s := logs.String(); strings.Contains(s, "not queued") || strings.Contains(s, "queue is full") {
		t.Fatalf("an event was refused by the full queue:\n%s", s)
	}
}

// A receiver's final refusal (4xx) is kept as dead, with its status, and
// only the newest events of an organization are kept so.
func TestWebhookRefusalIsKeptDead(t *testing.T) {
	e := newEnvWith(t, envOptions{threshold: 1})
	rc := newHookReceiver(t, func(*http.Request, []byte) int { return http.StatusGone })
	alice := e.clients["alice"]
	mustComplete(t)(alice.SetOrganizationFeature(ctxT(t), api.SetOrganizationFeatureParams{Name: api.FeatureWebhook, Value: rc.url}))
	waitOutbox(t, e.srv, WebhookOutboxStats{Dead: 1})
	var status int
	var lastErr string
	if err := e.srv.db.read.QueryRowContext(ctxT(t), `SELECT last_status, last_error FROM webhook_outbox WHERE state = 'dead'`).Scan(&status, &lastErr); err != nil {
		t.Fatal(err)
	}
	if status != http.StatusGone || !strings.Contains(lastErr, "410") {
		t.Fatalf("dead row: status %d, error %q; want 410 and the receiver's answer", status, lastErr)
	}
	// More refusals than are kept: the newest maxDeadWebhooksPerOrg stay.
	ids := tags(t, alice, "refused", maxDeadWebhooksPerOrg)
	waitOutbox(t, e.srv, WebhookOutboxStats{Dead: maxDeadWebhooksPerOrg})
	var oldest string
	if err := e.srv.db.read.QueryRowContext(ctxT(t), `SELECT event_id FROM webhook_outbox WHERE state = 'dead' ORDER BY seq LIMIT 1`).Scan(&oldest); err != nil {
		t.Fatal(err)
	}
	if oldest != ids[0] {
		t.Fatalf("oldest dead event kept is %s; want %s (the first refusal trimmed, the newest %d kept)", oldest, ids[0], maxDeadWebhooksPerOrg)
	}
}

func TestOutboxStatementsUseTheirIndexes(t *testing.T) {
	e := newEnvWith(t, envOptions{threshold: 1})
	for _, q := range []tracedQuery{
		{outboxDueQuery, []any{e.org.ID, 10}},
		{outboxTrimQuery, []any{e.org.ID, e.org.ID, maxDeadWebhooksPerOrg}},
	} {
		plan := explain(t, e, q)
		for _, step := range plan {
			if strings.HasPrefix(step, "SCAN webhook_outbox") || strings.Contains(step, "TEMP B-TREE") {
				t.Errorf("%s\nplan %q: reads or sorts the whole outbox", q.query, plan)
			}
		}
		if !strings.Contains(strings.Join(plan, "\n"), "INDEX webhook_outbox_") {
			t.Errorf("%s\nplan %q: uses none of the outbox's indexes", q.query, plan)
		}
	}
}

// A receiver shedding load (429 Too Many Requests) or timing out a request
// (408) is asked again; the event is delivered, not kept as dead.
func TestWebhookRateLimitedOrTimedOutIsRetried(t *testing.T) {
	for _, status := range []int{http.StatusTooManyRequests, http.StatusRequestTimeout} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			e := newEnvWith(t, envOptions{threshold: 1, webhooks: WebhookOptions{
				Delivery: webhook.DelivererOptions{BaseBackoff: 5 * time.Millisecond, MaxBackoff: 10 * time.Millisecond},
			}})
			var mu sync.Mutex
			answered := 0
			rc := newHookReceiver(t, func(*http.Request, []byte) int {
				mu.Lock()
				defer mu.Unlock()
				if answered++; answered == 1 {
					return status
				}
				return http.StatusOK
			})
			a := mustComplete(t)(e.clients["alice"].SetOrganizationFeature(ctxT(t), api.SetOrganizationFeatureParams{Name: api.FeatureWebhook, Value: rc.url}))
			rc.waitDelivered(t, completedEvent(a))
			waitOutbox(t, e.srv, WebhookOutboxStats{})
		})
	}
}

// An organization whose receiver hangs has at most maxInFlightPerOrg events
// in the shared delivery queue; the rest wait in the outbox, holding no place.
func TestWebhookOutboxHandsAnOrganizationFewEventsAtATime(t *testing.T) {
	e := newEnvWith(t, envOptions{threshold: 1, webhooks: WebhookOptions{
		Delivery: webhook.DelivererOptions{OrgConcurrency: 1, AttemptTimeout: time.Minute},
	}})
	rc, release := newHeldReceiver(t)
	alice := e.clients["alice"]
	ids := []string{completedEvent(mustComplete(t)(alice.SetOrganizationFeature(ctxT(t), api.SetOrganizationFeatureParams{Name: api.FeatureWebhook, Value: rc.url})))}
	ids = append(ids, tags(t, alice, "held", maxInFlightPerOrg+4)...)
	waitOutbox(t, e.srv, WebhookOutboxStats{Pending: len(ids)})
	deadline := time.Now().Add(10 * time.Second)
	for e.srv.hooks.deliverer.Stats().InProgress < maxInFlightPerOrg {
		if time.Now().After(deadline) {
			t.Fatalf("only %d events handed to the deliverer", e.srv.hooks.deliverer.Stats().InProgress)
		}
		time.Sleep(5 * time.Millisecond)
	}
	for range 40 { // the dispatcher has had every chance to hand over more
		if n := e.srv.hooks.deliverer.Stats().InProgress; n > maxInFlightPerOrg {
			t.Fatalf("%d events of one organization in the delivery queue; want at most %d", n, maxInFlightPerOrg)
		}
		time.Sleep(5 * time.Millisecond)
	}
	release()
	rc.waitDelivered(t, ids...)
	waitOutbox(t, e.srv, WebhookOutboxStats{})
}
