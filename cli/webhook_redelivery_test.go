package cli

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vigil-console/vigil/server"
	"github.com/vigil-console/vigil/webhook"
)

const hookOrg = "01a21fb6-ea79-73f6-a3ca-8c0d3aa1626b"

// loseFirstReply performs the round trip, then reports the first one as a
// network error: the receiver handled the delivery, its answer was lost.
type loseFirstReply struct{ n atomic.Int32 }

func (l *loseFirstReply) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(r)
	if err == nil && l.n.Add(1) == 1 {
		resp.Body.Close()
		return nil, errors.New("connection reset by peer")
	}
	return resp, err
}

// reportLog collects a listener's reports.
type reportLog struct {
	mu  sync.Mutex
	all []deliveryReport
}

func (l *reportLog) add(r deliveryReport) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.all = append(l.all, r)
	return nil
}

func (l *reportLog) reports() []deliveryReport {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]deliveryReport(nil), l.all...)
}

func activityBody(id string) []byte {
	return []byte(`{"id":"` + id + `","organizationId":"` + hookOrg + `","type":"ACTIVITY_TYPE_X","status":"ACTIVITY_STATUS_COMPLETED"}`)
}

// post sends body with headers h to url and returns the status.
func post(t *testing.T, url string, h http.Header, body []byte) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	req.Header = h.Clone()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// runListener serves 'webhook listen' on 127.0.0.1 until the test ends and
// returns its URL; stop stops it earlier.
func runListener(t *testing.T, jwksURL, saveDir string, log *reportLog) (url string, stop func()) {
	t.Helper()
	ln, serve, err := startWebhookListener("127.0.0.1:0", jwksURL, hookOrg, webhook.DefaultMaxAge, server.WebhookRedeliveryHorizon, saveDir, log.add)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serve(ctx) }()
	var once sync.Once
	stop = func() { once.Do(func() { cancel(); <-done }) }
	t.Cleanup(stop)
	return "http://" + ln.Addr().String() + "/", stop
}

// The service's retry of an event whose answer was lost is acknowledged
// (delivered, not a dead letter) and reported as a redelivery, not as a new
// delivery nor a refusal; the same event id with another body is refused.
func TestWebhookListenerAcknowledgesTheServicesRetryOfAnAcceptedEvent(t *testing.T) {
	ring, err := webhook.NewKeyRing()
	if err != nil {
		t.Fatal(err)
	}
	var log reportLog
	l, err := newListener(ring, hookOrg, webhook.DefaultMaxAge, server.WebhookRedeliveryHorizon, "", log.add, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(l)
	defer srv.Close()

	res := make(chan webhook.Result, 1)
	d := webhook.NewDeliverer(ring, &http.Client{Transport: &loseFirstReply{}}, webhook.DelivererOptions{
		BaseBackoff: 10 * time.Millisecond, MaxBackoff: 20 * time.Millisecond,
		OnResult: func(_ webhook.Event, r webhook.Result) { res <- r }})
	const event = "act-1:ACTIVITY_STATUS_COMPLETED"
	body := activityBody("act-1")
	if err := d.Enqueue(webhook.Event{OrgID: hookOrg, EventID: event, URL: srv.URL + "/", Body: body}); err != nil {
		t.Fatal(err)
	}
	r := <-res
	d.Close(context.Background())
	if !r.Delivered {
		t.Errorf("the retry of an event the listener accepted ended undelivered (HTTP %d, %v): the outbox keeps it as dead", r.StatusCode, r.Err)
	}
	rs := log.reports()
	if len(rs) != 2 || !rs[0].Verified || rs[0].Redelivery || !rs[1].Verified || !rs[1].Redelivery {
		t.Errorf("reports %+v, want a verified delivery then a redelivery", rs)
	}
	if len(rs) == 2 && (rs[1].line() == rs[0].line() || !strings.HasPrefix(rs[1].line(), "redelivery ")) {
		t.Errorf("the redelivery is printed %q, like the first delivery %q", rs[1].line(), rs[0].line())
	}

	// Signed by the service's key, same event id, another body: no
	// redelivery (the service sends again what it stored).
	other := bytes.Replace(body, []byte("COMPLETED"), []byte("FAILED"), 1)
	h, err := ring.Sign(hookOrg, event, time.Now(), other)
	if err != nil {
		t.Fatal(err)
	}
	if st := post(t, srv.URL+"/", h, other); st != http.StatusConflict {
		t.Errorf("the same event id with another body was answered %d, want 409", st)
	}
	if rs := log.reports(); len(rs) != 3 || rs[2].Verified || !strings.Contains(rs[2].Reason, "another body") {
		t.Errorf("the same event id with another body was reported %+v", rs[len(rs)-1])
	}
}

// A stranger who knows the organization id (it is in the clear header of
// every delivery) cannot fill the disk of 'webhook listen --save DIR': a
// refused body is kept cut, and only the newest refusals are kept.
func TestWebhookListenSaveBoundsRefusedDeliveries(t *testing.T) {
	saveDir := t.TempDir()
	var log reportLog
	url, _ := runListener(t, "http://127.0.0.1:1", saveDir, &log)
	junk := func(i int) http.Header {
		h := http.Header{}
		for k, v := range map[string]string{webhook.HeaderAlgorithm: webhook.Algorithm, webhook.HeaderVersion: webhook.Version,
			webhook.HeaderKeyID: "made-up", webhook.HeaderTimestamp: strconv.FormatInt(time.Now().UnixMilli(), 10),
			webhook.HeaderEventID: "ev-" + strconv.Itoa(i), webhook.HeaderSignature: strings.Repeat("00", 64),
			webhook.HeaderOrganizationID: hookOrg, webhook.HeaderEventType: webhook.EventTypeActivityUpdates} {
			h.Set(k, v)
		}
		return h
	}
	big := bytes.Repeat([]byte("A"), maxDeliveryBody)
	const bigOnes = 10
	for i := range bigOnes {
		if st := post(t, url, junk(i), big); st/100 == 2 {
			t.Fatalf("junk answered %d", st)
		}
	}
	var total int64
	filepath.Walk(saveDir, func(_ string, fi os.FileInfo, _ error) error {
		if fi != nil && !fi.IsDir() {
			total += fi.Size()
		}
		return nil
	})
	if total >= bigOnes*maxDeliveryBody/4 {
		t.Errorf("%d refused requests of %d bytes wrote %d bytes to the save directory", bigOnes, len(big), total)
	}
	if parts, _ := filepath.Glob(filepath.Join(saveDir, refusedDir, "*.body.part")); len(parts) != bigOnes {
		t.Errorf("%d cut bodies saved as .body.part, want %d: a cut body must not pass for a whole one", len(parts), bigOnes)
	}

	for i := bigOnes; i < bigOnes+maxRefusedSaved+5; i++ {
		post(t, url, junk(i), []byte(`{"x":1}`))
	}
	heads, _ := filepath.Glob(filepath.Join(saveDir, refusedDir, "*.headers"))
	bodies, _ := filepath.Glob(filepath.Join(saveDir, refusedDir, "*.body*"))
	if len(heads) > maxRefusedSaved || len(bodies) != len(heads) {
		t.Errorf("DIR/refused holds %d headers and %d bodies after %d refusals, want at most %d pairs", len(heads), len(bodies), bigOnes+maxRefusedSaved+5, maxRefusedSaved)
	}
	rs := log.reports()
	newest := rs[len(rs)-1].Saved
	if _, err := os.Stat(newest + ".body"); newest == "" || err != nil {
		t.Errorf("the newest refusal was not kept (%q: %v)", newest, err)
	}
}

// Strangers' POSTs (no headers at all, or well-formed headers and a body
// that does not verify) do not crowd a genuine delivery out of the console:
// it reaches the feed, and the header-level refusals are counted, not queued.
// A verified delivery the console has no room for is answered 503 (the
// service retries), never acknowledged and dropped.
func TestConsoleWebhookFeedKeepsGenuineDeliveriesThroughAFlood(t *testing.T) {
	ring, err := webhook.NewKeyRing()
	if err != nil {
		t.Fatal(err)
	}
	jwks := httptest.NewServer(webhook.JWKSHandler(ring))
	defer jwks.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	feed, err := consoleWebhookFeed(ctx, Profile{Name: "p", BaseURL: jwks.URL, OrganizationID: hookOrg, WebhookListen: "127.0.0.1:0"}, discardLogger())
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + feed.Addr + "/"
	const strangers = 300
	for range strangers {
		post(t, url, http.Header{}, []byte("x"))
	}
	for i := range strangers { // signed by a key that is not the service's
		forger, _ := webhook.NewKeyRing()
		body := activityBody("forged-" + strconv.Itoa(i))
		h, _ := forger.Sign(hookOrg, "forged-"+strconv.Itoa(i)+":ACTIVITY_STATUS_COMPLETED", time.Now(), body)
		h.Set(webhook.HeaderKeyID, ring.ActiveKeyID())
		post(t, url, h, body)
	}
	sign := func(id string) (http.Header, []byte) {
		body := activityBody(id)
		h, err := ring.Sign(hookOrg, id+":ACTIVITY_STATUS_COMPLETED", time.Now(), body)
		if err != nil {
			t.Fatal(err)
		}
		return h, body
	}
	// Nothing drains the feed yet: genuine deliveries are acknowledged while
	// the console has room, then answered 503.
	acked := map[string]bool{}
	busy := false
	for i := 0; !busy && i < 10000; i++ {
		id := "act-" + strconv.Itoa(i)
		h, body := sign(id)
		switch st := post(t, url, h, body); st {
		case http.StatusNoContent:
			acked[id] = true
		case http.StatusServiceUnavailable:
			busy = true
		default:
			t.Fatalf("genuine delivery %s answered %d", id, st)
		}
	}
	if len(acked) == 0 || !busy {
		t.Fatalf("%d genuine deliveries acknowledged, none answered 503 (busy=%v)", len(acked), busy)
	}
	for len(acked) > 0 {
		select {
		case d := <-feed.Deliveries:
			if !d.Verified {
				t.Fatalf("a refusal came on the verified deliveries' queue: %+v", d)
			}
			delete(acked, d.ActivityID)
		case <-time.After(5 * time.Second):
			t.Fatalf("%d acknowledged genuine deliveries never reached the console", len(acked))
		}
	}
	select {
	case u := <-feed.Unlisted:
		if u.Count < strangers || u.Last.Verified {
			t.Errorf("%d refusals counted, want at least the %d refused on their headers", u.Count, strangers)
		}
	default:
		t.Error("the header-level refusals were not counted")
	}
	// Room again: the service's retry of the refused one gets through.
	h, body := sign("act-retry")
	if st := post(t, url, h, body); st != http.StatusNoContent {
		t.Errorf("a genuine delivery with room answered %d", st)
	}
}

// A captured delivery replayed to a restarted 'webhook listen --save DIR'
// (within --max-age) is known: answered as a redelivery and not saved as a
// new delivery; another body under its event id is refused.
func TestWebhookListenSaveRemembersAcceptedEventsAcrossRestart(t *testing.T) {
	ring, _ := webhook.NewKeyRing()
	jwks := httptest.NewServer(webhook.JWKSHandler(ring))
	defer jwks.Close()
	saveDir := t.TempDir()
	const event = "act-1:ACTIVITY_STATUS_COMPLETED"
	body := activityBody("act-1")
	h, _ := ring.Sign(hookOrg, event, time.Now(), body)

	var first reportLog
	url, stop := runListener(t, jwks.URL, saveDir, &first)
	if st := post(t, url, h, body); st != http.StatusNoContent {
		t.Fatalf("first delivery answered %d", st)
	}
	stop()

	var second reportLog
	url, _ = runListener(t, jwks.URL, saveDir, &second)
	if st := post(t, url, h, body); st/100 != 2 {
		t.Errorf("the replay after a restart answered %d; the event was accepted, so it is acknowledged", st)
	}
	rs := second.reports()
	if len(rs) != 1 || !rs[0].Redelivery || rs[0].Saved != "" {
		t.Errorf("the replay after a restart was reported %+v, want a redelivery, not saved", rs)
	}
	if saved, _ := filepath.Glob(filepath.Join(saveDir, "*.body")); len(saved) != 1 {
		t.Errorf("%d deliveries saved in %s, want the first one only: %v", len(saved), saveDir, saved)
	}
	other := bytes.Replace(body, []byte("COMPLETED"), []byte("FAILED"), 1)
	h2, _ := ring.Sign(hookOrg, event, time.Now(), other)
	if st := post(t, url, h2, other); st != http.StatusConflict {
		t.Errorf("another body under an event id accepted before the restart answered %d, want 409", st)
	}
}

// DIR/accepted-events stays bounded by the memory window while the listener
// runs: ids older than it are dropped from the file, not only at a restart.
func TestWebhookListenSaveKeepsAcceptedEventsBounded(t *testing.T) {
	saveDir := t.TempDir()
	var log reportLog
	start := time.Now()
	l, err := newListener(nil, hookOrg, time.Minute, server.WebhookRedeliveryHorizon, saveDir, log.add, start)
	if err != nil {
		t.Fatal(err)
	}
	// What is bounded here is the file's length, not when its lines become
	// durable (webhook_save_durable_test.go covers that): without the
	// syncs of every file each event writes, the 8,000 events take a
	// quarter of the time.
	l.fsync = func(*os.File) error { return nil }
	const events = 8000
	for i := range events {
		// One accepted event a minute, for 133 hours: at most a window's
		// worth (the service's 24 hours of retries, ~1,450) is current.
		now := start.Add(time.Duration(i) * time.Minute)
		id := "act-" + strconv.Itoa(i) + ":ACTIVITY_STATUS_COMPLETED"
		if _, st := l.acceptLocked(http.Header{}, activityBody("act-"+strconv.Itoa(i)), &webhook.Delivery{EventID: id, OrganizationID: hookOrg}, nil, now); st != http.StatusNoContent {
			t.Fatalf("event %d answered %d", i, st)
		}
	}
	data, err := os.ReadFile(filepath.Join(saveDir, acceptedFile))
	if err != nil {
		t.Fatal(err)
	}
	if lines := bytes.Count(data, []byte("\n")); lines >= events/2 {
		t.Errorf("%s holds %d lines after %d events accepted one a minute with a %s window", acceptedFile, lines, events, l.memoryWindow())
	}
}
