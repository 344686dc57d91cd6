package webhook

import (
	"context"
	"testing"
	"time"
)

// A waiter handed a slot just as its context ends either uses the slot or
// passes it on: the next waiter in line is never left waiting for a release
// that already happened. Run many times, since which of the two the
// cancelled waiter sees first is up to the scheduler.
func TestSlotHandedToCancelledWaiterPassesOn(t *testing.T) {
	for range 200 {
		s := newRequestSlots(1, 1)
		holder, first, next := &orgQueue{}, &orgQueue{}, &orgQueue{}
		if err := s.acquire(context.Background(), holder); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		firstDone := make(chan error, 1)
		go func() { firstDone <- s.acquire(ctx, first) }()
		waitUntil(t, "the first waiter in line", func() bool { _, w := s.counts(); return w == 1 })
		nextDone := make(chan error, 1)
		go func() { nextDone <- s.acquire(context.Background(), next) }()
		waitUntil(t, "the second waiter in line", func() bool { _, w := s.counts(); return w == 2 })

		// The slot goes to the first waiter and its context ends at once,
		// before it can run.
		s.mu.Lock()
		cancel()
		s.giveBack(holder)
		s.mu.Unlock()

		if err := <-firstDone; err == nil {
			s.release(first) // it took the slot after all: done with it
		}
		select {
		case err := <-nextDone:
			if err != nil {
				t.Fatal(err)
			}
		case <-time.After(time.Minute):
			t.Fatal("the slot handed to a cancelled waiter was lost: the next waiter never got it")
		}
		s.release(next)
		if inUse, waiting := s.counts(); inUse != 0 || waiting != 0 {
			t.Fatalf("after every request ended: %d slots in use, %d waiting", inUse, waiting)
		}
	}
}
