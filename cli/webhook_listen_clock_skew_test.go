package cli

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server"
	"github.com/vigil-console/vigil/webhook"
)

// A listener whose clock is 2 minutes behind the service's refused every
// genuine delivery with 401, which the service takes as final: each event
// was kept as dead after one attempt, and stayed lost once the clock was
// fixed. Now such a delivery is answered 503 with the reason on the output
// (the clocks disagree: fix them), the service retries it, re-signed, and
// it arrives once the clock is right. A captured delivery replayed an hour
// later is still refused.
func TestWebhookListenReceivesEventsOnceItsClockIsFixed(t *testing.T) {
	e := newVerbEnv(t)
	saveDir := t.TempDir()
	var log reportLog
	l, err := newListener(webhook.NewJWKSCache(e.demo.URL+api.JWKSPath, nil, nil), e.demo.Info.OrganizationID,
		webhook.DefaultMaxAge, server.WebhookRedeliveryHorizon, saveDir, log.add, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	var offset atomic.Int64 // of this listener's clock from the service's
	offset.Store(int64(-2 * time.Minute))
	l.now = func() time.Time { return time.Now().Add(time.Duration(offset.Load())) }
	recv := httptest.NewServer(l)
	defer recv.Close()

	first := hookAndTag(t, e, recv.URL+"/")
	wait := func(what string, ok func(deliveryReport) bool) deliveryReport {
		t.Helper()
		deadline := time.Now().Add(45 * time.Second)
		for {
			for _, r := range log.reports() {
				if ok(r) {
					return r
				}
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: not seen; reports %+v", what, log.reports())
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	refused := wait("a refusal naming the clock", func(r deliveryReport) bool { return !r.Verified })
	for _, want := range []string{"stale webhook delivery", "ahead of this machine's clock", "fix the clock", "answered 503"} {
		if !strings.Contains(refused.Reason, want) {
			t.Errorf("a genuine delivery refused while the clock is 2 minutes behind says %q; want it to say %q", refused.Reason, want)
		}
	}

	offset.Store(0) // the operator fixes the clock
	got := wait("the first activity's event, after the clock was fixed", func(r deliveryReport) bool {
		return r.Verified && r.ActivityID == first
	})

	// Replayed an hour later, the saved copy is refused, and not saved again.
	h, body := loadSaved(t, got.Saved)
	offset.Store(int64(time.Hour))
	before := len(log.reports())
	if st := postDelivery(t, recv.URL+"/", h, body); st/100 == 2 {
		t.Errorf("a delivery replayed an hour later was answered %d", st)
	}
	rs := log.reports()
	if len(rs) <= before || rs[before].Verified || !strings.Contains(rs[before].Saved, refusedDir) || !strings.Contains(rs[before].Reason, "stale webhook delivery") {
		t.Errorf("a delivery replayed an hour later was reported %+v, want refused as stale, kept only in %s", rs[before:], refusedDir)
	}
}

// The answer decides whether the service retries (webhook.Retryable): a
// delivery outside the window whose signature verifies is retried, a forged
// one is not.
func TestWebhookListenRetriesOnlyGenuineDeliveriesOutsideTheWindow(t *testing.T) {
	ring, err := webhook.NewKeyRing()
	if err != nil {
		t.Fatal(err)
	}
	var log reportLog
	l, err := newListener(ring, hookOrg, webhook.DefaultMaxAge, server.WebhookRedeliveryHorizon, "", log.add, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	recv := httptest.NewServer(l)
	defer recv.Close()

	body := activityBody("act-3")
	signedAt := time.Now().Add(-10 * time.Minute)
	h, err := ring.Sign(hookOrg, "act-3:ACTIVITY_STATUS_COMPLETED", signedAt, body)
	if err != nil {
		t.Fatal(err)
	}
	if st := post(t, recv.URL+"/", h, body); !webhook.Retryable(st) {
		t.Errorf("a genuine delivery signed 10 minutes ago was answered %d, which the service does not retry", st)
	}
	forged := []byte(strings.Replace(string(body), "COMPLETED", "FAILED", 1))
	if st := post(t, recv.URL+"/", h, forged); st != http.StatusUnauthorized {
		t.Errorf("a forged delivery signed 10 minutes ago was answered %d, want 401", st)
	}
	rs := log.reports()
	if len(rs) != 2 || !strings.Contains(rs[0].Reason, "signature verifies") || !strings.Contains(rs[1].Reason, "bad webhook signature") {
		t.Errorf("reports %+v, want a stale genuine delivery, then a bad signature", rs)
	}
}
