package webhook

import (
	"context"
	"slices"
	"sync"
)

// requestSlots hands out the Deliverer's request slots so that organizations
// whose receivers hang cannot hold them all: reserve of them go only to an
// organization with nothing on the wire. An organization with a request
// already under way starts another only while fewer than shared = size -
// reserve slots are in use.
//
// Every slot is then in use only when more than reserve organizations have
// requests under way: an extra request is taken only below shared, so the
// extras number at most shared-1, and each of the other slots is some
// organization's only-or-first request.
//
// A freed slot is handed to one waiter, the first in line that may take it,
// rather than waking them all to race for it: waiters are served in the
// order they came, except that an organization with nothing on the wire
// passes waiters whose organizations already have a request under way when
// only the reserve is left.
type requestSlots struct {
	mu      sync.Mutex
	inUse   int
	size    int           // Concurrency
	shared  int           // what organizations already on the wire may fill
	waiters []*slotWaiter // in the order they came
}

// slotWaiter is one acquire waiting for a slot.
type slotWaiter struct {
	q       *orgQueue
	granted chan struct{} // closed once the slot is taken for it
}

// newRequestSlots keeps half the slots in reserve, but never so many that an
// organization alone cannot have perOrg (OrgConcurrency) requests at once:
// that is a limit the operator chose, and a lone organization is no threat
// to the others. With perOrg = size nothing is reserved.
func newRequestSlots(size, perOrg int) *requestSlots {
	return &requestSlots{size: size, shared: size - reserveSlots(size, perOrg)}
}

// reserveSlots is how many of size slots are kept for organizations with
// nothing on the wire: half, rounded down, but no more than size - perOrg.
// So a single slot has no reserve, and two have one only with perOrg 1.
func reserveSlots(size, perOrg int) int {
	return max(0, min(size/2, size-perOrg))
}

// mayTake tells whether a request of q's organization may take a slot now.
// Called with s.mu held.
func (s *requestSlots) mayTake(q *orgQueue) bool {
	return s.inUse < s.size && (q.onWire == 0 || s.inUse < s.shared)
}

// acquire takes a slot for a request of q's organization, waiting until one
// is handed to it or ctx ends.
func (s *requestSlots) acquire(ctx context.Context, q *orgQueue) error {
	s.mu.Lock()
	// Whoever waits may not take a slot now (grant runs at every release),
	// so taking one at once passes no one who could.
	if s.mayTake(q) {
		s.inUse++
		q.onWire++
		s.mu.Unlock()
		return nil
	}
	w := &slotWaiter{q: q, granted: make(chan struct{})}
	s.waiters = append(s.waiters, w)
	s.mu.Unlock()

	select {
	case <-w.granted:
		return nil
	case <-ctx.Done():
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if i := slices.Index(s.waiters, w); i >= 0 {
		s.waiters = slices.Delete(s.waiters, i, i+1)
		return ctx.Err()
	}
	// Chosen as ctx ended: pass the slot on, or the next in line would wait
	// for a release that already happened.
	s.giveBack(q)
	return ctx.Err()
}

// counts returns the requests under way and those waiting for a slot.
func (s *requestSlots) counts() (inUse, waiting int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.inUse, len(s.waiters)
}

// release gives back a slot taken by acquire for q's organization.
func (s *requestSlots) release(q *orgQueue) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.giveBack(q)
}

// giveBack frees q's slot and hands it on. Called with s.mu held.
func (s *requestSlots) giveBack(q *orgQueue) {
	s.inUse--
	q.onWire--
	s.grant()
}

// grant hands free slots to the first waiters in line that may take them,
// one slot each. Called with s.mu held.
func (s *requestSlots) grant() {
	for i := 0; i < len(s.waiters) && s.inUse < s.size; {
		w := s.waiters[i]
		if !s.mayTake(w.q) {
			i++
			continue
		}
		s.inUse++
		w.q.onWire++
		close(w.granted)
		s.waiters = slices.Delete(s.waiters, i, i+1)
	}
}
