package webhook

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// The reserve rule of docs/webhooks.md at small sizes: min(Concurrency/2,
// Concurrency - OrgConcurrency) slots are kept for organizations with
// nothing on the wire. An organization sending alone gets its whole
// OrgConcurrency, and receivers of that many organizations, hanging, leave a
// slot for another organization's event (Concurrency 2 with OrgConcurrency 1
// keeps one; Concurrency 1 none, which the documentation says).
func TestSmallConcurrencyKeepsItsReserve(t *testing.T) {
	for c := 1; c <= 4; c++ {
		for perOrg := 1; perOrg <= c; perOrg++ {
			reserve := min(c/2, c-perOrg) // the documented rule
			t.Run(fmt.Sprintf("Concurrency%d/OrgConcurrency%d", c, perOrg), func(t *testing.T) {
				checkReserve(t, c, perOrg, reserve)
			})
		}
	}
}

func checkReserve(t *testing.T, c, perOrg, reserve int) {
	ring, _ := NewKeyRing()
	var mu sync.Mutex
	hanging := 0
	srv, release := hangingServer(t, func(*http.Request) {
		mu.Lock()
		hanging++
		mu.Unlock()
	}, nil)
	hangingNow := func() int {
		mu.Lock()
		defer mu.Unlock()
		return hanging
	}
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusNoContent)
	}))
	defer recv.Close()
	d, results := reportingDeliverer(t, ring, nil, DelivererOptions{Concurrency: c, OrgConcurrency: perOrg, AttemptTimeout: time.Hour}, 100)
	enqueueHanging := func(org string) {
		for i := range perOrg + 1 {
			if err := d.Enqueue(Event{OrgID: org, EventID: fmt.Sprintf("evt-%d", i), URL: srv.URL, Body: testBody}); err != nil {
				t.Fatal(err)
			}
		}
	}

	// Alone, the first stalled organization gets all of its OrgConcurrency.
	enqueueHanging("stalled-0")
	waitUntil(t, fmt.Sprintf("%d requests of an organization sending alone hanging", perOrg), func() bool {
		st := d.Stats()
		return hangingNow() == perOrg && st.Requests == perOrg
	})
	if reserve == 0 {
		release()
		return
	}
	for o := 1; o < reserve; o++ {
		enqueueHanging(fmt.Sprintf("stalled-%d", o))
	}
	// Every stalled organization has taken all it can: each attempt holding
	// its organization's slot hangs or waits for a request slot.
	waitUntil(t, "the stalled organizations holding all they can", func() bool {
		st := d.Stats()
		return st.Requests == hangingNow() && st.Requests+st.Waiting == reserve*perOrg
	})
	if err := d.Enqueue(Event{OrgID: otherOrg, EventID: "evt-other", URL: recv.URL, Body: otherBody}); err != nil {
		t.Fatal(err)
	}
	res := waitDelivered(t, results, "evt-other", time.Minute)
	held := hangingNow()
	release()
	if !res.Delivered {
		t.Fatalf("another organization's event while %d organizations hang: %+v", reserve, res)
	}
	if held >= c {
		t.Errorf("%d stalled organizations held every slot (%d)", reserve, held)
	}
}
