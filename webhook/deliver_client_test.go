package webhook

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// deliverOne enqueues one event with d and waits for its result.
func deliverOne(t *testing.T, d *Deliverer, results chan Result, ev Event) Result {
	t.Helper()
	if err := d.Enqueue(ev); err != nil {
		t.Fatal(err)
	}
	return <-results
}

// A receiver (any address an organization's root quorum names) that answers
// with megabytes of headers must not have them all read and held for each
// attempt: the reply fails the attempt like a network error, retried and
// then given up, whatever client the service was given, and a reply with
// ordinary headers is still delivered.
func TestDelivererBoundsReplyHeaders(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		n := 4 << 10 // a few KiB, as a real receiver might send
		if r.URL.Path == "/huge" {
			n = 1 << 20
		}
		for i := range 4 {
			w.Header().Set("X-Pad-"+string(rune('A'+i)), strings.Repeat("a", n))
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	own := &http.Transport{}
	clients := map[string]*http.Client{
		"no client":                 nil,
		"client with a timeout":     {Timeout: 10 * time.Second},
		"client with own transport": {Transport: own},
	}
	for name, client := range clients {
		t.Run(name, func(t *testing.T) {
			ring, err := NewKeyRing()
			if err != nil {
				t.Fatal(err)
			}
			results := make(chan Result, 1)
			d := NewDeliverer(ring, client, DelivererOptions{MaxAttempts: 2, BaseBackoff: time.Millisecond, MaxBackoff: time.Millisecond,
				OnResult: func(_ Event, r Result) { results <- r }})
			defer d.Close(context.Background())

			hits.Store(0)
			r := deliverOne(t, d, results, Event{OrgID: "org-1", EventID: "e1", URL: srv.URL + "/huge", Body: []byte(`{}`)})
			if r.Delivered || r.StatusCode != 0 || r.Attempts != 2 || hits.Load() != 2 {
				t.Errorf("a reply with 4 MiB of headers: %+v after %d requests; want undelivered, no status, retried once", r, hits.Load())
			}
			r = deliverOne(t, d, results, Event{OrgID: "org-1", EventID: "e2", URL: srv.URL + "/small", Body: []byte(`{}`)})
			if !r.Delivered {
				t.Errorf("a reply with 16 KiB of headers was not delivered: %+v", r)
			}
		})
	}
	if own.MaxResponseHeaderBytes != 0 {
		t.Errorf("the embedder's own transport was changed: MaxResponseHeaderBytes = %d", own.MaxResponseHeaderBytes)
	}
}
