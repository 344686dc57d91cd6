package webhook

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// Organizations whose receivers never answer cannot take every request slot:
// with as many of them as Concurrency/OrgConcurrency (8), each with more
// events than its share of the slots, another organization's event is still
// delivered while every one of their requests is still hanging.
func TestHangingOrganizationsLeaveSlotsForOthers(t *testing.T) {
	ring, _ := NewKeyRing()
	var mu sync.Mutex
	hangingBy := map[string]int{} // organization (the URL's path) -> requests hanging
	changed := make(chan struct{}, 1)
	hanging, release := hangingServer(t, func(r *http.Request) {
		mu.Lock()
		hangingBy[r.URL.Path]++
		mu.Unlock()
		select {
		case changed <- struct{}{}:
		default:
		}
	}, nil)
	recv := newReceiver(t, ringEndpoint(t, ring).URL())
	// An attempt timeout far beyond the test: no hanging request ends before
	// the test releases them.
	d, results := hangingDeliverer(t, ring)

	orgs := DefaultConcurrency / DefaultOrgConcurrency
	for o := range orgs {
		for i := range 2 * DefaultOrgConcurrency {
			ev := Event{OrgID: fmt.Sprintf("stalled-%d", o), EventID: fmt.Sprintf("evt-%d", i), URL: fmt.Sprintf("%s/stalled-%d", hanging.URL, o), Body: testBody}
			if err := d.Enqueue(ev); err != nil {
				t.Fatal(err)
			}
		}
	}
	// Every stalled organization has a request hanging, and each of their
	// attempts that holds its organization's slot is hanging too or waits
	// for a request slot: they have taken all they can.
	deadline := time.After(30 * time.Second)
	for {
		mu.Lock()
		n, total := len(hangingBy), 0
		for _, k := range hangingBy {
			total += k
		}
		mu.Unlock()
		st := d.Stats()
		if n == orgs && st.Requests == total && st.Requests+st.Waiting == orgs*DefaultOrgConcurrency {
			break
		}
		select {
		case <-changed:
		case <-time.After(10 * time.Millisecond): // a request may be taken without reaching the receiver yet
		case <-deadline:
			t.Fatalf("%d of %d stalled organizations got a request through; %d hanging; %+v", n, orgs, total, st)
		}
	}

	if err := d.Enqueue(Event{OrgID: otherOrg, EventID: "evt-alert", URL: recv.URL, Body: otherBody}); err != nil {
		t.Fatal(err)
	}
	res := waitDelivered(t, results, "evt-alert", 60*time.Second)
	mu.Lock()
	var held []string
	total := 0
	for org, n := range hangingBy {
		held = append(held, fmt.Sprintf("%s:%d", strings.TrimPrefix(org, "/"), n))
		total += n
	}
	mu.Unlock()
	release()
	t.Logf("held %d %v", total, held)
	if !res.Delivered {
		t.Fatalf("another organization's event while %d stalled organizations hang: %+v", orgs, res)
	}
	if total >= DefaultConcurrency {
		t.Errorf("the stalled organizations held %d requests, every slot: %v", total, held)
	}
	if r := <-recv.arrived; r.err != nil || r.delivery.OrganizationID != otherOrg {
		t.Fatalf("receiver got %+v, %v", r.delivery, r.err)
	}
}
