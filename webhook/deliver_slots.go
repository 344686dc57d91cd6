package webhook

import (
	"context"
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
type requestSlots struct {
	mu     sync.Mutex
	inUse  int
	wait   int           // requests waiting for a slot
	size   int           // Concurrency
	shared int           // what organizations already on the wire may fill
	freed  chan struct{} // closed, and replaced, whenever a slot is given back
}

// newRequestSlots keeps half the slots in reserve, but never so many that an
// organization alone cannot have perOrg (OrgConcurrency) requests at once:
// that is a limit the operator chose, and a lone organization is no threat
// to the others. With perOrg = size nothing is reserved.
func newRequestSlots(size, perOrg int) *requestSlots {
	reserve := min(size/2, size-perOrg)
	return &requestSlots{size: size, shared: max(1, size-reserve), freed: make(chan struct{})}
}

// acquire takes a slot for a request of q's organization, waiting until one
// may be taken or ctx ends.
func (s *requestSlots) acquire(ctx context.Context, q *orgQueue) error {
	for {
		s.mu.Lock()
		if s.inUse < s.size && (q.onWire == 0 || s.inUse < s.shared) {
			s.inUse++
			q.onWire++
			s.mu.Unlock()
			return nil
		}
		freed := s.freed
		s.wait++
		s.mu.Unlock()
		var err error
		select {
		case <-freed:
		case <-ctx.Done():
			err = ctx.Err()
		}
		s.mu.Lock()
		s.wait--
		s.mu.Unlock()
		if err != nil {
			return err
		}
	}
}

// counts returns the requests under way and those waiting for a slot.
func (s *requestSlots) counts() (inUse, waiting int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.inUse, s.wait
}

// release gives back a slot taken by acquire for q's organization.
func (s *requestSlots) release(q *orgQueue) {
	s.mu.Lock()
	s.inUse--
	q.onWire--
	close(s.freed)
	s.freed = make(chan struct{})
	s.mu.Unlock()
}
