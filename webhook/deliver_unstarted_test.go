package webhook

import (
	"context"
	"sync/atomic"
	"testing"
)

// An event still waiting for its organization's request slot when the
// deliverer shuts down was never sent: its result counts no attempt and
// Retarget (where a sender records an attempt as started) is not called for
// it, so a sender that gives events up by attempts or first attempt does not
// take it for one a receiver may have had.
func TestDeliverShutdownWhileWaitingForASlotCountsNoAttempt(t *testing.T) {
	ring, _ := NewKeyRing()
	recv := newReceiver(t, ringEndpoint(t, ring).URL())
	recv.hold = make(chan struct{})
	t.Cleanup(func() { close(recv.hold) })
	var retargeted atomic.Int32
	d, results := testDeliverer(t, ring, DelivererOptions{OrgConcurrency: 1, Retarget: func(ev Event) (string, error) {
		if ev.EventID == "evt-waiting" {
			retargeted.Add(1)
		}
		return ev.URL, nil
	}})
	if err := d.Enqueue(Event{OrgID: testOrg, EventID: "evt-on-the-wire", URL: recv.URL, Body: testBody}); err != nil {
		t.Fatal(err)
	}
	<-recv.arrived // holds the organization's only request slot
	if err := d.Enqueue(Event{OrgID: testOrg, EventID: "evt-waiting", URL: recv.URL, Body: testBody}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // abandon what is in progress at once
	d.Close(ctx)
	for range 2 {
		o := waitResult(t, results)
		if o.ev.EventID != "evt-waiting" {
			continue
		}
		if o.res.Delivered || o.res.Attempts != 0 || o.res.Err == nil {
			t.Errorf("result of the event that never left the queue: %+v, want not delivered, 0 attempts, an error", o.res)
		}
	}
	if n := retargeted.Load(); n != 0 {
		t.Errorf("Retarget called %d times for an event never sent", n)
	}
	for _, r := range recv.requests() {
		if r.delivery != nil && r.delivery.EventID == "evt-waiting" {
			t.Errorf("the receiver got the event the shutdown abandoned")
		}
	}
}
