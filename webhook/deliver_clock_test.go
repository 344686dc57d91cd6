package webhook

import (
	"net/http"
	"sync/atomic"
	"testing"
	"time"
)

// MaxEventAge is counted on the sender's clock (DelivererOptions.Now): when
// that clock moves past the event's stay, no retry is scheduled, however
// many attempts MaxAttempts would still allow.
func TestDeliverMaxEventAgeFollowsTheSendersClock(t *testing.T) {
	ring, _ := NewKeyRing()
	recv := newReceiver(t, ringEndpoint(t, ring).URL())
	var ahead atomic.Int64
	recv.status = func(int) int {
		ahead.Store(int64(2 * time.Hour)) // the sender's clock jumps while the receiver is down
		return http.StatusServiceUnavailable
	}
	d, results := testDeliverer(t, ring, DelivererOptions{MaxAttempts: 5, MaxEventAge: time.Hour,
		Now: func() time.Time { return time.Now().Add(time.Duration(ahead.Load())) }})
	if err := d.Enqueue(Event{OrgID: testOrg, EventID: "evt-clock", URL: recv.URL, Body: testBody}); err != nil {
		t.Fatal(err)
	}
	o := waitResult(t, results)
	if o.res.Delivered || o.res.Attempts != 1 {
		t.Errorf("result %+v: the sender's clock passed MaxEventAge after the first attempt, want that one attempt only", o.res)
	}
}
