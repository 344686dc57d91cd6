package cli

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/server"
	"github.com/vigil-console/vigil/webhook"
)

// The service retries an event for 24 hours (outbox; and at its
// next start after a crash that came between the receiver's 204 and the
// outcome being recorded). The listener remembered accepted ids only for
// --max-age + 2 min, so a genuine redelivery later than that was saved and
// reported again as a new verified delivery: handled twice, though the docs
// say a redelivery is "neither saved nor counted as new again".
func TestWebhookListenKnowsALateRedelivery(t *testing.T) {
	ring, err := webhook.NewKeyRing()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var log reportLog
	const event = "act-9:ACTIVITY_STATUS_COMPLETED"
	body := activityBody("act-9")

	// First delivery accepted (saved, journaled, 204) 10 minutes ago.
	first := time.Now().Add(-10 * time.Minute)
	l := listenerThatAccepted(t, ring, dir, server.WebhookRedeliveryHorizon, log.add, event, body, first)

	// The service (restarted after a crash, or retrying from its outbox)
	// sends the same event, same body, signed afresh, now.
	srv := httptest.NewServer(l)
	defer srv.Close()
	h2, _ := ring.Sign(hookOrg, event, time.Now(), body)
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/", bytes.NewReader(body))
	req.Header = h2
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()

	rs := log.reports()
	last := rs[len(rs)-1]
	entries, _ := os.ReadDir(dir)
	var bodies []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".body") {
			bodies = append(bodies, filepath.Join(dir, e.Name()))
		}
	}
	if !last.Redelivery || len(bodies) != 1 {
		t.Errorf("a redelivery of event %s 10 minutes after it was accepted: HTTP %d, reported redelivery=%v, %d saved copies %v; want a redelivery, saved once",
			event, resp.StatusCode, last.Redelivery, len(bodies), bodies)
	}
}

// A service whose Config.Webhooks gives up later than the default (48 hours
// here) may send an event again up to its own horizon after the first copy.
// The listener told that horizon (--remember) knows such a late copy, also
// after a restart on its --save directory: answered 200 as a redelivery,
// never saved nor counted as new again.
func TestWebhookListenKnowsARedeliveryWithinTheServicesConfiguredHorizon(t *testing.T) {
	ring, err := webhook.NewKeyRing()
	if err != nil {
		t.Fatal(err)
	}
	horizon := server.WebhookOptions{GiveUpAfter: 48 * time.Hour}.RedeliveryHorizon()
	dir := t.TempDir()
	var log reportLog
	const event = "act-7:ACTIVITY_STATUS_COMPLETED"
	body := activityBody("act-7")

	// The first copy was accepted just inside the horizon ago.
	first := time.Now().Add(-horizon + time.Minute)
	listenerThatAccepted(t, ring, dir, horizon, log.add, event, body, first)

	// The listener restarts on its directory; the service sends the event
	// again now, twice (the first answer lost too).
	l, err := newListener(ring, hookOrg, webhook.DefaultMaxAge, horizon, dir, log.add, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(l)
	defer srv.Close()
	for i := range 2 {
		h, _ := ring.Sign(hookOrg, event, time.Now(), body)
		if st := post(t, srv.URL+"/", h, body); st != http.StatusOK {
			t.Errorf("copy %d of event %s, %s after the first, inside the service's %s horizon: HTTP %d, want 200 (a redelivery)", i+2, event, horizon-time.Minute, horizon, st)
		}
	}
	var news int
	for _, r := range log.reports() {
		if r.Verified && !r.Redelivery {
			news++
		}
	}
	entries, _ := os.ReadDir(dir)
	var bodies []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".body") {
			bodies = append(bodies, e.Name())
		}
	}
	if news != 1 || len(bodies) != 1 {
		t.Errorf("event %s counted new %d times, saved %d times %v; want once each", event, news, len(bodies), bodies)
	}
}

// A --remember shorter than the service's default horizon would take a late
// copy for a new delivery: refused, saying what to give.
func TestWebhookListenRefusesARememberShorterThanTheHorizon(t *testing.T) {
	var out, errOut bytes.Buffer
	c := proc{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut, getenv: func(string) string { return "" }}
	code := run(context.Background(), c, []string{"webhook", "listen", "--addr", "127.0.0.1:0", "--remember", "1h"})
	if msg := errOut.String(); code == 0 || !strings.Contains(msg, "--remember 1h0m0s is shorter") || !strings.Contains(msg, server.WebhookRedeliveryHorizon.String()) {
		t.Errorf("--remember 1h: exit %d, %q; want refused, naming the least value", code, msg)
	}
}

// listenerThatAccepted is a listener saving to dir and remembering accepted
// ids for remember, that accepted event (body) at first: saved, journaled,
// answered 204.
func listenerThatAccepted(t *testing.T, ring *webhook.KeyRing, dir string, remember time.Duration, report func(deliveryReport) error, event string, body []byte, first time.Time) *listener {
	t.Helper()
	l, err := newListener(ring, hookOrg, webhook.DefaultMaxAge, remember, dir, report, first)
	if err != nil {
		t.Fatal(err)
	}
	h, _ := ring.Sign(hookOrg, event, first, body)
	d, verr := webhook.VerifyForOrganization(t.Context(), hookOrg, h, body, ring, first, webhook.DefaultMaxAge)
	if verr != nil {
		t.Fatal(verr)
	}
	l.mu.Lock()
	_, st := l.acceptLocked(h, body, d, nil, first)
	l.mu.Unlock()
	if st != http.StatusNoContent {
		t.Fatalf("first delivery: %d", st)
	}
	return l
}
