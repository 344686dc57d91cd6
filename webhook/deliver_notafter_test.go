package webhook

import (
	"errors"
	"net/http"
	"testing"
	"time"
)

// An event past its NotAfter is not sent at all: the service gives events
// up at an age its receivers rely on to forget their ids.
func TestDeliverNeverSendsAfterNotAfter(t *testing.T) {
	ring, _ := NewKeyRing()
	recv := newReceiver(t, ringEndpoint(t, ring).URL())
	d, results := testDeliverer(t, ring, DelivererOptions{})
	notAfter := time.Now().Add(-time.Second)
	if err := d.Enqueue(Event{OrgID: testOrg, EventID: "evt-late", URL: recv.URL, Body: testBody, NotAfter: notAfter}); err != nil {
		t.Fatal(err)
	}
	o := waitResult(t, results)
	if o.res.Delivered || o.res.Attempts != 0 || !errors.Is(o.res.Err, ErrTooLate) {
		t.Errorf("result %+v, want no attempt and ErrTooLate", o.res)
	}
	if got := recv.requests(); len(got) != 0 {
		t.Errorf("the receiver got %d requests for an event past its last sending time", len(got))
	}
}

// Retries stop at NotAfter even when MaxEventAge and MaxAttempts would allow
// more: every attempt the receiver sees was signed (started) by then.
func TestDeliverRetriesStopAtNotAfter(t *testing.T) {
	ring, _ := NewKeyRing()
	recv := newReceiver(t, ringEndpoint(t, ring).URL())
	recv.status = func(int) int { return http.StatusServiceUnavailable }
	// The sender's clock passes NotAfter once the receiver has had three
	// attempts: a NotAfter a few milliseconds ahead of the real clock could
	// pass before the first attempt on a loaded machine. (A minute: well
	// within MaxEventAge, which would stop the retries too.)
	const before = 3
	notAfter := time.Now().Add(time.Minute)
	now := func() time.Time {
		if len(recv.requests()) >= before {
			return notAfter.Add(time.Millisecond)
		}
		return time.Now()
	}
	d, results := testDeliverer(t, ring, DelivererOptions{MaxAttempts: 100000, Now: now})
	if err := d.Enqueue(Event{OrgID: testOrg, EventID: "evt-retry", URL: recv.URL, Body: testBody, NotAfter: notAfter}); err != nil {
		t.Fatal(err)
	}
	o := waitResult(t, results)
	if o.res.Delivered || o.res.Attempts < before {
		t.Fatalf("result %+v, want at least %d failed attempts", o.res, before)
	}
	got := recv.requests()
	if len(got) != o.res.Attempts {
		t.Errorf("the receiver got %d requests, the result counts %d attempts", len(got), o.res.Attempts)
	}
	for i, r := range got {
		if r.err != nil {
			t.Fatalf("attempt %d rejected: %v", i+1, r.err)
		}
		if r.delivery.Timestamp.After(notAfter) {
			t.Fatalf("attempt %d was signed at %s, after the event's last sending time %s",
				i+1, r.delivery.Timestamp.Format(time.RFC3339Nano), notAfter.Format(time.RFC3339Nano))
		}
	}
}
