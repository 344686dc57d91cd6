package webhook

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// received is one request as a receiver saw it.
type received struct {
	header   http.Header
	body     []byte
	delivery *Delivery
	err      error
}

// receiver is a webhook endpoint that verifies every request the way
// docs/webhooks.md tells receivers to, against the service's published JWKS.
type receiver struct {
	*httptest.Server
	keys  KeySource  // a JWKSCache of the service's endpoint unless replaced
	clock *fakeClock // of that JWKSCache
	// status picks the answer to the n-th (1-based) verified request.
	status func(n int) int
	// hold, if set, is waited on before answering.
	hold chan struct{}
	// arrived gets every request once verified, before hold.
	arrived chan received

	mu  sync.Mutex
	got []received
}

func newReceiver(t *testing.T, jwksURL string) *receiver {
	t.Helper()
	r := &receiver{
		clock:   newFakeClock(),
		status:  func(int) int { return http.StatusOK },
		arrived: make(chan received, 1000),
	}
	r.keys = NewJWKSCache(jwksURL, nil, r.clock.Now)
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(io.LimitReader(req.Body, 1<<20))
		d, err := VerifyContext(req.Context(), req.Header, body, r.keys, time.Now(), 0)
		rec := received{header: req.Header.Clone(), body: body, delivery: d, err: err}
		r.mu.Lock()
		r.got = append(r.got, rec)
		n := len(r.got)
		r.mu.Unlock()
		r.arrived <- rec
		if r.hold != nil {
			<-r.hold
		}
		switch {
		case errors.Is(err, ErrUnknownKey), errors.Is(err, ErrJWKSUnavailable):
			w.WriteHeader(http.StatusServiceUnavailable)
		case err != nil:
			w.WriteHeader(http.StatusUnauthorized)
		default:
			w.WriteHeader(r.status(n))
		}
	}))
	t.Cleanup(r.Close)
	return r
}

func (r *receiver) requests() []received {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.got)
}

type outcome struct {
	ev  Event
	res Result
}

// testDeliverer has millisecond backoffs and reports results on a channel.
func testDeliverer(t *testing.T, ring *KeyRing, opts DelivererOptions) (*Deliverer, chan outcome) {
	t.Helper()
	results := make(chan outcome, 1000)
	opts.BaseBackoff, opts.MaxBackoff = time.Millisecond, 5*time.Millisecond
	opts.OnResult = func(ev Event, res Result) { results <- outcome{ev, res} }
	d := NewDeliverer(ring, nil, opts)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		d.Close(ctx)
	})
	return d, results
}

func waitResult(t *testing.T, results chan outcome) outcome {
	t.Helper()
	select {
	case o := <-results:
		return o
	case <-time.After(10 * time.Second):
		t.Fatal("no delivery result within 10s")
		return outcome{}
	}
}

func TestDeliverVerifiedByReceiver(t *testing.T) {
	ring, _ := NewKeyRing()
	jwks := ringEndpoint(t, ring)
	recv := newReceiver(t, jwks.URL())
	var logs syncBuffer
	d, results := testDeliverer(t, ring, DelivererOptions{Logger: slog.New(slog.NewTextHandler(&logs, nil))})

	for i := range 3 {
		ev := Event{OrgID: testOrg, EventID: fmt.Sprintf("evt-%d", i), URL: recv.URL + "/hook?token=s3cret", Body: testBody}
		if err := d.Enqueue(ev); err != nil {
			t.Fatal(err)
		}
	}
	for range 3 {
		o := waitResult(t, results)
		if !o.res.Delivered || o.res.Attempts != 1 || o.res.StatusCode != 200 || o.res.Err != nil {
			t.Fatalf("%s: %+v, want delivered on the first attempt", o.ev.EventID, o.res)
		}
		if o.res.KeyID != ring.ActiveKeyID() {
			t.Fatalf("signed with %s, want active %s", o.res.KeyID, ring.ActiveKeyID())
		}
	}
	got := recv.requests()
	if len(got) != 3 {
		t.Fatalf("receiver got %d requests, want 3", len(got))
	}
	for _, r := range got {
		if r.err != nil {
			t.Fatalf("receiver rejected a delivery: %v", r.err)
		}
		if string(r.body) != string(testBody) || r.delivery.OrganizationID != testOrg {
			t.Fatalf("receiver got body %q for org %q", r.body, r.delivery.OrganizationID)
		}
		if ct := r.header.Get("Content-Type"); ct != "application/json" {
			t.Errorf("Content-Type %q", ct)
		}
	}
	if n := jwks.hits.Load(); n != 1 {
		t.Errorf("receiver fetched the JWKS %d times, want 1", n)
	}
	// Each delivery is logged with its event, the destination's host and the
	// status, never the URL (its query may hold a token).
	host := strings.TrimPrefix(recv.URL, "http://")
	if out := logs.String(); strings.Count(out, `msg="webhook delivered"`) != 3 || strings.Count(out, "host="+host) != 3 || strings.Contains(out, "s3cret") {
		t.Errorf("logs should name each delivery's host, not its URL:\n%s", out)
	}
}

func TestDeliverRetries503WithSameEventID(t *testing.T) {
	ring, _ := NewKeyRing()
	recv := newReceiver(t, ringEndpoint(t, ring).URL())
	recv.status = func(n int) int {
		if n <= 2 {
			return http.StatusServiceUnavailable
		}
		return http.StatusNoContent
	}
	d, results := testDeliverer(t, ring, DelivererOptions{MaxAttempts: 5})
	if err := d.Enqueue(Event{OrgID: testOrg, EventID: "evt-retry", URL: recv.URL, Body: testBody}); err != nil {
		t.Fatal(err)
	}
	o := waitResult(t, results)
	if !o.res.Delivered || o.res.Attempts != 3 || o.res.StatusCode != http.StatusNoContent {
		t.Fatalf("result %+v, want delivered on attempt 3", o.res)
	}
	got := recv.requests()
	if len(got) != 3 {
		t.Fatalf("receiver got %d requests, want 3", len(got))
	}
	for i, r := range got {
		if r.err != nil {
			t.Fatalf("attempt %d rejected: %v", i+1, r.err)
		}
		if r.delivery.EventID != "evt-retry" {
			t.Fatalf("attempt %d has event id %q", i+1, r.delivery.EventID)
		}
		if i > 0 && r.delivery.Timestamp.Before(got[i-1].delivery.Timestamp) {
			t.Fatalf("attempt %d is signed earlier than attempt %d", i+1, i)
		}
	}
}

// 408 and 429 say "later", not "never": they are retried like a 5xx.
func TestDeliverRetriesTooManyRequestsAndRequestTimeout(t *testing.T) {
	ring, _ := NewKeyRing()
	recv := newReceiver(t, ringEndpoint(t, ring).URL())
	recv.status = func(n int) int {
		switch n {
		case 1:
			return http.StatusTooManyRequests
		case 2:
			return http.StatusRequestTimeout
		}
		return http.StatusNoContent
	}
	d, results := testDeliverer(t, ring, DelivererOptions{MaxAttempts: 5})
	if err := d.Enqueue(Event{OrgID: testOrg, EventID: "evt-later", URL: recv.URL, Body: testBody}); err != nil {
		t.Fatal(err)
	}
	if o := waitResult(t, results); !o.res.Delivered || o.res.Attempts != 3 {
		t.Fatalf("result %+v, want delivered on attempt 3", o.res)
	}
}

func TestDeliverFinalStatuses(t *testing.T) {
	ring, _ := NewKeyRing()
	var elsewhere atomic.Int32
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { elsewhere.Add(1) }))
	defer target.Close()

	for _, status := range []int{http.StatusBadRequest, http.StatusUnauthorized, http.StatusFound, http.StatusPermanentRedirect} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			var hits atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				hits.Add(1)
				w.Header().Set("Location", target.URL)
				w.WriteHeader(status)
			}))
			defer srv.Close()
			d, results := testDeliverer(t, ring, DelivererOptions{MaxAttempts: 5})
			d.Enqueue(Event{OrgID: testOrg, EventID: "evt-final", URL: srv.URL, Body: testBody})
			o := waitResult(t, results)
			if o.res.Delivered || o.res.Attempts != 1 || o.res.StatusCode != status || o.res.Err == nil {
				t.Fatalf("result %+v, want one failed attempt with status %d", o.res, status)
			}
			if hits.Load() != 1 {
				t.Fatalf("%d requests, want 1 (no retry)", hits.Load())
			}
		})
	}
	if n := elsewhere.Load(); n != 0 {
		t.Fatalf("a redirect was followed %d times", n)
	}
}

func TestDeliverGivesUpAfterMaxAttempts(t *testing.T) {
	ring, _ := NewKeyRing()
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.WriteHeader(http.StatusInternalServerError)
	}))
	defer srv.Close()
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close() // connection refused: a network error

	var logs syncBuffer
	d, results := testDeliverer(t, ring, DelivererOptions{MaxAttempts: 3, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	d.Enqueue(Event{OrgID: testOrg, EventID: "evt-500", URL: srv.URL + "/hook?token=s3cret", Body: testBody})
	d.Enqueue(Event{OrgID: testOrg, EventID: "evt-net", URL: closed.URL + "/hook?token=s3cret", Body: testBody})
	for range 2 {
		o := waitResult(t, results)
		wantStatus := map[string]int{"evt-500": 500, "evt-net": 0}[o.ev.EventID]
		if o.res.Delivered || o.res.Attempts != 3 || o.res.StatusCode != wantStatus || o.res.Err == nil {
			t.Fatalf("%s: %+v, want 3 failed attempts, last status %d", o.ev.EventID, o.res, wantStatus)
		}
		if strings.Contains(o.res.Err.Error(), "s3cret") {
			t.Errorf("result error reveals the URL's token: %v", o.res.Err)
		}
	}
	if out := logs.String(); !strings.Contains(out, "evt-net") || strings.Contains(out, "s3cret") {
		t.Errorf("logs should name the event but not the URL's token:\n%s", out)
	}
	if hits.Load() != 3 {
		t.Fatalf("%d requests to the 500 endpoint, want 3", hits.Load())
	}
}

func TestRotationKeepsOldKeyUntilInFlightDeliveryCompletes(t *testing.T) {
	ring, _ := NewKeyRing()
	oldKid := ring.ActiveKeyID()
	jwks := ringEndpoint(t, ring)
	recv := newReceiver(t, jwks.URL())
	recv.hold = make(chan struct{})
	d, results := testDeliverer(t, ring, DelivererOptions{})

	if err := d.Enqueue(Event{OrgID: testOrg, EventID: "evt-slow", URL: recv.URL, Body: testBody}); err != nil {
		t.Fatal(err)
	}
	first := <-recv.arrived
	if first.err != nil || first.delivery.KeyID != oldKid {
		t.Fatalf("first delivery: %+v, %v", first.delivery, first.err)
	}
	newKid, err := ring.Rotate()
	if err != nil {
		t.Fatal(err)
	}
	// While the delivery is in flight, a receiver that fetches the keys now
	// (fresh cache) can still verify it.
	late := NewJWKSCache(jwks.URL(), nil, nil)
	if _, err := Verify(first.header, first.body, late, time.Now(), 0); err != nil {
		t.Fatalf("in-flight delivery with the old key, fresh JWKS: %v", err)
	}
	if got := kids(ring.JWKS()); !slices.Equal(got, []string{oldKid, newKid}) {
		t.Fatalf("JWKS during delivery %v, want [old new]", got)
	}

	close(recv.hold)
	if o := waitResult(t, results); !o.res.Delivered || o.res.KeyID != oldKid {
		t.Fatalf("result %+v", o.res)
	}
	if got := kids(ring.JWKS()); !slices.Equal(got, []string{newKid}) {
		t.Fatalf("JWKS after delivery %v, want only the new key", got)
	}
	after := NewJWKSCache(jwks.URL(), nil, nil)
	if _, err := Verify(first.header, first.body, after, time.Now(), 0); !errors.Is(err, ErrUnknownKey) {
		t.Fatalf("old key after retirement: %v, want ErrUnknownKey", err)
	}
	// New deliveries use the new key, and the receiver's cache (which knew
	// only the old key) refetches to verify them, once MinRefetchInterval
	// has passed since its last fetch.
	recv.clock.Advance(MinRefetchInterval)
	d.Enqueue(Event{OrgID: testOrg, EventID: "evt-next", URL: recv.URL, Body: testBody})
	if r := <-recv.arrived; r.err != nil || r.delivery.KeyID != newKid {
		t.Fatalf("delivery after rotation: %+v, %v", r.delivery, r.err)
	}
	if o := waitResult(t, results); !o.res.Delivered {
		t.Fatalf("result %+v", o.res)
	}
}

func TestEnqueueQueueFullAndClose(t *testing.T) {
	ring, _ := NewKeyRing()
	recv := newReceiver(t, ringEndpoint(t, ring).URL())
	recv.hold = make(chan struct{})
	d, results := testDeliverer(t, ring, DelivererOptions{QueueSize: 2, OrgQueueSize: 2})
	ev := func(id string) Event { return Event{OrgID: testOrg, EventID: id, URL: recv.URL, Body: testBody} }

	for _, id := range []string{"a", "b"} {
		if err := d.Enqueue(ev(id)); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.Enqueue(ev("c")); !errors.Is(err, ErrQueueFull) {
		t.Fatalf("third event in a queue of 2: %v, want ErrQueueFull", err)
	}
	<-recv.arrived
	<-recv.arrived

	// Close waits for both in-flight deliveries: when it returns, both have
	// reported their results (OnResult runs before a delivery ends).
	type closeResult struct {
		err      error
		reported int
	}
	closed := make(chan closeResult, 1)
	go func() {
		err := d.Close(context.Background())
		closed <- closeResult{err, len(results)}
	}()
	// Close has begun once Enqueue says closed (until then the full queue
	// refuses with ErrQueueFull).
	for {
		err := d.Enqueue(ev("d"))
		if errors.Is(err, ErrClosed) {
			break
		}
		if !errors.Is(err, ErrQueueFull) {
			t.Fatalf("Enqueue while closing: %v", err)
		}
		runtime.Gosched()
	}
	close(recv.hold)
	if r := <-closed; r.err != nil || r.reported != 2 {
		t.Fatalf("Close returned %v with %d of 2 in-flight deliveries finished", r.err, r.reported)
	}
	for range 2 {
		if o := waitResult(t, results); !o.res.Delivered {
			t.Fatalf("%s: %+v", o.ev.EventID, o.res)
		}
	}
}

func TestCloseGivesUpAtDeadline(t *testing.T) {
	ring, _ := NewKeyRing()
	recv := newReceiver(t, ringEndpoint(t, ring).URL())
	recv.hold = make(chan struct{})
	defer close(recv.hold)
	d, results := testDeliverer(t, ring, DelivererOptions{})
	d.Enqueue(Event{OrgID: testOrg, EventID: "evt-stuck", URL: recv.URL, Body: testBody})
	<-recv.arrived

	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := d.Close(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Close: %v, want DeadlineExceeded", err)
	}
	o := waitResult(t, results)
	if o.res.Delivered || o.res.Err == nil {
		t.Fatalf("abandoned delivery reported %+v", o.res)
	}
	// The abandoned attempt released its key hold.
	ring.Rotate()
	if n := len(ring.JWKS().Keys); n != 1 {
		t.Fatalf("JWKS has %d keys after abandoning, want 1", n)
	}
}

func TestEnqueueRejectsBadEvents(t *testing.T) {
	ring, _ := NewKeyRing()
	d, _ := testDeliverer(t, ring, DelivererOptions{})
	for name, ev := range map[string]Event{
		"no url":        {OrgID: testOrg, EventID: "e"},
		"relative url":  {OrgID: testOrg, EventID: "e", URL: "/hook"},
		"ftp url":       {OrgID: testOrg, EventID: "e", URL: "ftp://example.com/"},
		"bad event id":  {OrgID: testOrg, EventID: "e.1", URL: "https://example.com/"},
		"no org":        {EventID: "e", URL: "https://example.com/"},
		"org with LF":   {OrgID: "a\nb", EventID: "e", URL: "https://example.com/"},
		"url with ctrl": {OrgID: testOrg, EventID: "e", URL: "https://exa\x7fmple.com/"},
	} {
		if err := d.Enqueue(ev); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestConcurrentEnqueue(t *testing.T) {
	ring, _ := NewKeyRing()
	recv := newReceiver(t, ringEndpoint(t, ring).URL())
	// Rotations race with deliveries here: verify against the ring's
	// published keys directly, so that every attempt must find its key
	// still published (a JWKSCache would add its refetch rate limit).
	recv.keys = ring
	// 200 events of one organization at once: more than its default share.
	d, results := testDeliverer(t, ring, DelivererOptions{OrgQueueSize: 200})
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 25 {
				if g == 0 && i%10 == 0 {
					ring.Rotate()
				}
				ev := Event{OrgID: testOrg, EventID: fmt.Sprintf("evt-%d-%d", g, i), URL: recv.URL, Body: testBody}
				if err := d.Enqueue(ev); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	seen := map[string]bool{}
	for range 200 {
		o := waitResult(t, results)
		if !o.res.Delivered {
			t.Fatalf("%s: %+v", o.ev.EventID, o.res)
		}
		seen[o.ev.EventID] = true
	}
	if len(seen) != 200 {
		t.Fatalf("%d distinct events delivered, want 200", len(seen))
	}
	for _, r := range recv.requests() {
		if r.err != nil {
			t.Fatalf("receiver rejected %s: %v", r.header.Get(HeaderEventID), r.err)
		}
	}
	if n := len(ring.JWKS().Keys); n != 1 {
		t.Fatalf("JWKS has %d keys once everything is delivered, want 1", n)
	}
}

func TestBackoffBounds(t *testing.T) {
	d := NewDeliverer(nil, nil, DelivererOptions{BaseBackoff: 100 * time.Millisecond, MaxBackoff: 3 * time.Second})
	for n := 1; n <= 40; n++ {
		ceiling := 100 * time.Millisecond
		for i := 1; i < n; i++ {
			ceiling = min(2*ceiling, 3*time.Second)
		}
		for range 20 {
			w := d.backoff(n, 0)
			if w < ceiling/2 || w > ceiling {
				t.Fatalf("backoff(%d) = %s, want within [%s, %s]", n, w, ceiling/2, ceiling)
			}
		}
	}
	if w := d.backoff(1, 2*time.Second); w != 2*time.Second {
		t.Errorf("Retry-After 2s: waited %s", w)
	}
	if w := d.backoff(1, time.Hour); w != 3*time.Second {
		t.Errorf("Retry-After 1h: waited %s, want the 3s cap", w)
	}
}

// syncBuffer is a bytes.Buffer safe for a logger used from many goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// Room tells a caller with its own backlog how many events Enqueue would
// take: an organization's share, less its events in progress, bounded by
// what is left of the whole queue; every event it promises is accepted.
func TestRoomMatchesWhatEnqueueAccepts(t *testing.T) {
	ring, _ := NewKeyRing()
	recv := newReceiver(t, ringEndpoint(t, ring).URL())
	recv.hold = make(chan struct{})
	d, results := testDeliverer(t, ring, DelivererOptions{QueueSize: 3, OrgQueueSize: 2})
	ev := func(org, id string) Event { return Event{OrgID: org, EventID: id, URL: recv.URL, Body: testBody} }

	for _, org := range []string{"org-a", "org-b"} {
		room := d.Room(org)
		if room != 2 {
			t.Fatalf("%s with nothing in progress: Room = %d, want its share 2", org, room)
		}
	}
	for i := range d.Room("org-a") {
		if err := d.Enqueue(ev("org-a", fmt.Sprintf("a%d", i))); err != nil {
			t.Fatalf("event %d of the %d Room promised: %v", i, 2, err)
		}
	}
	if room := d.Room("org-a"); room != 0 {
		t.Fatalf("org-a with its share in progress: Room = %d, want 0", room)
	}
	if err := d.Enqueue(ev("org-a", "a-more")); !errors.Is(err, ErrQueueFull) {
		t.Fatalf("org-a beyond Room: %v, want ErrQueueFull", err)
	}
	// One place is left in the whole queue, though org-b's share is 2.
	if room := d.Room("org-b"); room != 1 {
		t.Fatalf("org-b with one place left in the queue: Room = %d, want 1", room)
	}
	close(recv.hold)
	for range 2 {
		waitResult(t, results)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	d.Close(ctx)
	if room := d.Room("org-a"); room != 0 {
		t.Fatalf("after Close: Room = %d, want 0", room)
	}
}
