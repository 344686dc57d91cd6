package webhook

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"
)

// An organization alone gets the OrgConcurrency it was given: the slots kept
// for other organizations must not halve it while no other is sending. With
// Concurrency 2 (OrgConcurrency defaults to 2) its two events are on the wire
// at once, as with OrgConcurrency = Concurrency = 4 its four.
func TestLoneOrganizationGetsItsOrgConcurrency(t *testing.T) {
	for _, tc := range []struct{ concurrency, perOrg, want int }{
		{2, 0, DefaultOrgConcurrency},
		{4, 4, 4},
		{5, 3, 3},
	} {
		t.Run(fmt.Sprintf("Concurrency %d OrgConcurrency %d", tc.concurrency, tc.perOrg), func(t *testing.T) {
			ring, _ := NewKeyRing()
			var mu sync.Mutex
			onWire := 0
			arrived := make(chan struct{}, tc.want)
			recv, release := hangingServer(t, func(*http.Request) {
				mu.Lock()
				onWire++
				mu.Unlock()
				arrived <- struct{}{}
			}, nil)
			d := NewDeliverer(ring, nil, DelivererOptions{Concurrency: tc.concurrency, OrgConcurrency: tc.perOrg, AttemptTimeout: time.Hour})
			defer func() {
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				defer cancel()
				d.Close(ctx)
			}()
			for i := range tc.want {
				if err := d.Enqueue(Event{OrgID: "org-alone", EventID: fmt.Sprintf("evt-%d", i), URL: recv.URL, Body: testBody}); err != nil {
					t.Fatal(err)
				}
			}
			// Either all of them reach the receiver, or some wait for a
			// request slot while fewer are on the wire (they would wait
			// until one of those ends, which the receiver never does).
			deadline := time.After(30 * time.Second)
			for got := 0; got < tc.want; {
				select {
				case <-arrived:
					got++
					continue
				case <-time.After(10 * time.Millisecond):
				case <-deadline:
					t.Fatalf("%d of %d requests reached the receiver; %+v", got, tc.want, d.Stats())
				}
				mu.Lock()
				n := onWire
				mu.Unlock()
				if st := d.Stats(); st.Waiting > 0 && st.Requests == n && n < tc.want {
					t.Fatalf("one organization, alone: %d request(s) on the wire and %d waiting for a slot, want %d at once", n, st.Waiting, tc.want)
				}
			}
			release()
		})
	}
}
