package cli

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"time"
)

// lastResortWait is how long serve, demo and the console get, after the
// second stop signal cut their shutdown short, to finish their own cleanup
// before the process ends anyway.
const lastResortWait = 3 * time.Second

// stopping is what the second stop signal does to a command that cleans up
// as it stops (serve, demo, the console): hurry ends, cutting short the
// graceful parts (requests in flight, webhook deliveries, the demo's webhook
// restore); the essential cleanup (the store closed, the demo's temporary
// directory removed) then runs as usual. Should the command still not have
// returned lastResortWait later, the cleanups registered with lastResort run
// and the process exits 130. A nil *stopping never hurries (tests).
type stopping struct {
	hurry context.Context
	mu    sync.Mutex
	last  map[int]func()
	next  int
}

// hurryCtx ends at the second stop signal.
func (s *stopping) hurryCtx() context.Context {
	if s == nil {
		return context.Background()
	}
	return s.hurry
}

// lastResort registers f to run if the process must exit with the command
// still running; the returned func unregisters it (once the command did
// the cleanup itself).
func (s *stopping) lastResort(f func()) (done func()) {
	if s == nil {
		return func() {}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.last == nil {
		s.last = map[int]func(){}
	}
	id := s.next
	s.next++
	s.last[id] = f
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		delete(s.last, id)
	}
}

func (s *stopping) runLastResort() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, f := range s.last {
		f()
	}
}

// watchSecondStopSignal watches for the second stop signal (the first
// cancels the command's context): Ctrl-C again must stop vigil, as it would
// if vigil did not catch the signals. A command that cleans up as it stops
// (cleans) is hurried and given lastResortWait; any other ends at once,
// after its lastResort cleanups, with exit 130 as a shell shows Ctrl-C. The returned func stops watching;
// call it once the command has returned.
func watchSecondStopSignal(cleans bool) (*stopping, func()) {
	hurry, cancel := context.WithCancel(context.Background())
	s := &stopping{hurry: hurry}
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, stopSignals()...)
	done := make(chan struct{})
	go func() {
		for n := 0; n < 2; {
			select {
			case <-sigs:
				n++
			case <-done:
				return
			}
		}
		cancel()
		if cleans {
			fmt.Fprintln(os.Stderr, "vigil: second stop signal: cutting the shutdown short")
			select {
			case <-done:
				return // the command returned: Main's caller exits
			case <-time.After(lastResortWait):
			}
			fmt.Fprintf(os.Stderr, "vigil: still stopping %s after the second stop signal: exiting now\n", lastResortWait)
			s.runLastResort()
		} else {
			fmt.Fprintln(os.Stderr, "vigil: second stop signal: stopping at once")
			// The first signal's cleanup may not have run yet (a hidden
			// prompt's terminal restore).
			s.runLastResort()
		}
		os.Exit(130)
	}()
	return s, func() { signal.Stop(sigs); close(done) }
}
