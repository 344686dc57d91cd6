package cli

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

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
	l, err := newListener(ring, hookOrg, webhook.DefaultMaxAge, dir, log.add, first)
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
