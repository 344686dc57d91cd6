package webhook

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"
)

// waitUntil polls cond, a state the deliverer reaches on its own (no timing
// is assumed), failing the test if it is not reached within a minute.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("never reached: %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// Deliveries waiting for a request slot get it one at a time, in the order
// they started waiting: an organization whose event has waited longest goes
// first, not whichever waiter happens to win a stampede when a slot frees.
func TestSlotWaitersServedInOrder(t *testing.T) {
	ring, _ := NewKeyRing()
	hung := make(chan struct{}, 1)
	hanging, release := hangingServer(t, func(*http.Request) { hung <- struct{}{} }, nil)
	arrived := make(chan string, 100)
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		arrived <- r.Header.Get(HeaderOrganizationID)
		w.WriteHeader(http.StatusNoContent)
	}))
	defer recv.Close()
	// One request slot: each waiter's request goes out alone, so the order
	// the receiver sees is the order the slot was handed out.
	d, results := reportingDeliverer(t, ring, nil, DelivererOptions{Concurrency: 1, AttemptTimeout: time.Hour}, 100)

	if err := d.Enqueue(Event{OrgID: "holder", EventID: "evt-hold", URL: hanging.URL, Body: testBody}); err != nil {
		t.Fatal(err)
	}
	<-hung
	var want []string
	for i := range 8 {
		org := fmt.Sprintf("waiting-%d", i)
		if err := d.Enqueue(Event{OrgID: org, EventID: "evt-" + org, URL: recv.URL, Body: testBody}); err != nil {
			t.Fatal(err)
		}
		want = append(want, org)
		waitUntil(t, fmt.Sprintf("%d deliveries waiting for the slot", i+1), func() bool { return d.Stats().Waiting == i+1 })
	}
	release()

	var got []string
	for range want {
		select {
		case org := <-arrived:
			got = append(got, org)
		case <-time.After(time.Minute):
			t.Fatalf("only %v arrived", got)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("deliveries went out in the order %v; want the order they waited in, %v", got, want)
	}
	for range len(want) + 1 {
		if o := waitResult(t, results); !o.res.Delivered {
			t.Errorf("%s: %+v", o.ev.EventID, o.res)
		}
	}
}
