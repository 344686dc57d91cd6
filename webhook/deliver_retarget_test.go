package webhook

import (
	"errors"
	"net/http"
	"sync/atomic"
	"testing"
)

// Each attempt goes to the URL Retarget gives then, not the one the event
// was enqueued with: a sender whose destination changes while an event is
// retried sends no retry to the replaced URL.
func TestDeliverRetriesGoWhereRetargetSays(t *testing.T) {
	ring, _ := NewKeyRing()
	jwks := ringEndpoint(t, ring).URL()
	old := newReceiver(t, jwks)
	old.status = func(int) int { return http.StatusServiceUnavailable }
	moved := newReceiver(t, jwks)
	var attempts atomic.Int32
	d, results := testDeliverer(t, ring, DelivererOptions{MaxAttempts: 10, Retarget: func(ev Event) (string, error) {
		if attempts.Add(1) == 1 {
			return ev.URL, nil
		}
		return moved.URL, nil
	}})
	if err := d.Enqueue(Event{OrgID: testOrg, EventID: "evt-moved", URL: old.URL, Body: testBody}); err != nil {
		t.Fatal(err)
	}
	o := waitResult(t, results)
	if !o.res.Delivered || o.res.Attempts != 2 {
		t.Errorf("result %+v, want delivered at the second attempt", o.res)
	}
	if n, m := len(old.requests()), len(moved.requests()); n != 1 || m != 1 {
		t.Errorf("the replaced URL got %d requests and the new one %d, want 1 each", n, m)
	}
}

// A Retarget error, or a URL that is not an absolute http(s) one, ends the
// event unsent, with that error.
func TestDeliverRetargetRefusalEndsTheEventUnsent(t *testing.T) {
	ring, _ := NewKeyRing()
	recv := newReceiver(t, ringEndpoint(t, ring).URL())
	removed := errors.New("no webhook any more")
	for _, tc := range []struct {
		retarget func(Event) (string, error)
		want     error
	}{
		{func(Event) (string, error) { return "", removed }, removed},
		{func(Event) (string, error) { return "ftp://example.com/hook", nil }, ErrInvalidURL},
	} {
		d, results := testDeliverer(t, ring, DelivererOptions{Retarget: tc.retarget})
		if err := d.Enqueue(Event{OrgID: testOrg, EventID: "evt-unsent", URL: recv.URL, Body: testBody}); err != nil {
			t.Fatal(err)
		}
		o := waitResult(t, results)
		if o.res.Delivered || o.res.Attempts != 0 || !errors.Is(o.res.Err, tc.want) {
			t.Errorf("result %+v, want no attempt and %v", o.res, tc.want)
		}
	}
	if n := len(recv.requests()); n != 0 {
		t.Errorf("the receiver got %d requests for events Retarget refused", n)
	}
}
