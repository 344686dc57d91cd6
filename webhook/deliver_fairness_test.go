package webhook

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// Organizations share one Deliverer in the service: what one organization's
// receiver does must not keep the others' events from being delivered.

const otherOrg = "1c8e8e6b-3b5f-4b62-8b61-6d7a2a7a3a4f"

var otherBody = []byte(`{"id":"act-2","organizationId":"` + otherOrg + `","status":"ACTIVITY_STATUS_COMPLETED"}`)

// serviceDeliverer is built the way the service builds its Deliverer
// (default options) and reports results on a channel.
func serviceDeliverer(t *testing.T, ring *KeyRing) (*Deliverer, chan outcome) {
	t.Helper()
	return reportingDeliverer(t, ring, &http.Client{Timeout: 10 * time.Second}, DelivererOptions{}, 2*DefaultQueueSize)
}

// hangingDeliverer has the default options but an attempt timeout far
// beyond any test, and reports results on a channel.
func hangingDeliverer(t *testing.T, ring *KeyRing) (*Deliverer, chan outcome) {
	t.Helper()
	return reportingDeliverer(t, ring, nil, DelivererOptions{AttemptTimeout: time.Hour}, 100)
}

// reportingDeliverer is a Deliverer with opts that reports results on a
// channel holding n, closed (waiting a second at most) when the test ends.
func reportingDeliverer(t *testing.T, ring *KeyRing, client *http.Client, opts DelivererOptions, n int) (*Deliverer, chan outcome) {
	t.Helper()
	results := make(chan outcome, n)
	opts.OnResult = func(ev Event, res Result) { results <- outcome{ev, res} }
	d := NewDeliverer(ring, client, opts)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		d.Close(ctx)
	})
	return d, results
}

// hangingServer is a receiver that never answers: each request, once seen by
// onRequest, hangs until release is called (once or more) or it is cancelled,
// then onDone (if any) sees it end. At the test's end it is released, then
// closed.
func hangingServer(t *testing.T, onRequest, onDone func(r *http.Request)) (srv *httptest.Server, release func()) {
	t.Helper()
	released := make(chan struct{})
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		onRequest(r)
		select {
		case <-r.Context().Done():
		case <-released:
		}
		if onDone != nil {
			onDone(r)
		}
	}))
	t.Cleanup(srv.Close)
	release = sync.OnceFunc(func() { close(released) })
	t.Cleanup(release)
	return srv, release
}

// waitDelivered waits for the result of event id, skipping the others.
func waitDelivered(t *testing.T, results chan outcome, id string, within time.Duration) Result {
	t.Helper()
	timeout := time.After(within)
	for {
		select {
		case o := <-results:
			if o.ev.EventID == id {
				return o.res
			}
		case <-timeout:
			t.Fatalf("no result for %s within %s", id, within)
			return Result{}
		}
	}
}

// A receiver answering 503 with Retry-After: 300 keeps each event in the
// queue for many minutes. Its organization fills only its own share: another
// organization's event is still accepted and delivered, and the refusals are
// counted and name the organization.
func TestOrganizationCannotFillOthersQueue(t *testing.T) {
	ring, _ := NewKeyRing()
	failing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "300")
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	defer failing.Close()
	recv := newReceiver(t, ringEndpoint(t, ring).URL())
	d, results := serviceDeliverer(t, ring)

	var refusal error
	accepted := 0
	for i := range DefaultQueueSize {
		err := d.Enqueue(Event{OrgID: testOrg, EventID: fmt.Sprintf("evt-%d", i), URL: failing.URL, Body: testBody})
		if err != nil {
			refusal = err
			break
		}
		accepted++
	}
	if !errors.Is(refusal, ErrQueueFull) {
		t.Fatalf("organization with a failing receiver had %d events accepted, then %v; want ErrQueueFull before the whole queue (%d)", accepted, refusal, DefaultQueueSize)
	}
	if !strings.Contains(refusal.Error(), testOrg) {
		t.Errorf("refusal does not name the organization: %v", refusal)
	}
	if got := d.Stats().Refused; got != 1 {
		t.Errorf("Stats().Refused = %d after one refusal", got)
	}

	if err := d.Enqueue(Event{OrgID: otherOrg, EventID: "evt-other", URL: recv.URL, Body: otherBody}); err != nil {
		t.Fatalf("another organization's event refused: %v", err)
	}
	if res := waitDelivered(t, results, "evt-other", 10*time.Second); !res.Delivered {
		t.Fatalf("another organization's event: %+v", res)
	}
	if r := <-recv.arrived; r.err != nil || r.delivery.OrganizationID != otherOrg {
		t.Fatalf("receiver got %+v, %v", r.delivery, r.err)
	}
}

// No event stays queued longer than MaxEventAge, whatever Retry-After says.
func TestDeliverGivesUpAtMaxEventAge(t *testing.T) {
	ring, _ := NewKeyRing()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "3600")
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	results := make(chan outcome, 1)
	d := NewDeliverer(ring, nil, DelivererOptions{
		MaxBackoff:  time.Hour,
		MaxEventAge: time.Minute,
		OnResult:    func(ev Event, res Result) { results <- outcome{ev, res} },
	})
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		d.Close(ctx)
	}()
	if err := d.Enqueue(Event{OrgID: testOrg, EventID: "evt-late", URL: srv.URL, Body: testBody}); err != nil {
		t.Fatal(err)
	}
	o := waitResult(t, results)
	if o.res.Delivered || o.res.Attempts != 1 || o.res.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("result %+v, want given up after the first attempt", o.res)
	}
	if d.Stats().InProgress != 0 {
		t.Fatalf("the event still holds its queue place: %+v", d.Stats())
	}
}

// A receiver that accepts the connection and never answers holds at most its
// organization's share of the request slots: another organization's event is
// delivered while it still hangs.
func TestHangingReceiverDoesNotDelayOtherOrganizations(t *testing.T) {
	ring, _ := NewKeyRing()
	hung := make(chan struct{}, DefaultConcurrency+1)
	var mu sync.Mutex
	inFlight, maxInFlight := 0, 0
	hanging, _ := hangingServer(t, func(*http.Request) {
		mu.Lock()
		inFlight++
		maxInFlight = max(maxInFlight, inFlight)
		mu.Unlock()
		hung <- struct{}{}
	}, func(*http.Request) {
		mu.Lock()
		inFlight--
		mu.Unlock()
	})
	recv := newReceiver(t, ringEndpoint(t, ring).URL())
	// An attempt timeout far beyond the test's wait: the other event can
	// only get through while the hanging requests are still open.
	d, results := hangingDeliverer(t, ring)

	// More events than there are request slots in all.
	for i := range DefaultConcurrency + 1 {
		if err := d.Enqueue(Event{OrgID: testOrg, EventID: fmt.Sprintf("evt-%d", i), URL: hanging.URL, Body: testBody}); err != nil {
			t.Fatal(err)
		}
	}
	<-hung // at least one request is hanging
	if err := d.Enqueue(Event{OrgID: otherOrg, EventID: "evt-other", URL: recv.URL, Body: otherBody}); err != nil {
		t.Fatal(err)
	}
	if res := waitDelivered(t, results, "evt-other", 30*time.Second); !res.Delivered {
		t.Fatalf("another organization's event: %+v", res)
	}
	mu.Lock()
	defer mu.Unlock()
	if maxInFlight > DefaultOrgConcurrency {
		t.Errorf("the hanging receiver had %d requests at once, more than its organization's %d", maxInFlight, DefaultOrgConcurrency)
	}
}
