package webhook

import (
	"context"
	"sync"
)

// requestSlots hands out the Deliverer's request slots so that organizations
// whose receivers hang cannot hold them all: an organization with a request
// already on the wire starts another only while fewer than shared slots are
// in use, so the rest stays free for organizations with nothing on the wire.
type requestSlots struct {
	mu     sync.Mutex
	inUse  int
	wait   int           // requests waiting for a slot
	size   int           // Concurrency
	shared int           // what organizations already on the wire may fill
	freed  chan struct{} // closed, and replaced, whenever a slot is given back
}

func newRequestSlots(size int) *requestSlots {
	// Half the slots: with two requests per organization, every slot is then
	// held only once size/4 + size/2 organizations have requests under way.
	return &requestSlots{size: size, shared: max(1, size-size/2), freed: make(chan struct{})}
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
