package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync/atomic"
	"time"
)

// defaultShutdownGrace is how long `vigil serve` lets requests in flight
// finish once told to stop (--shutdown-grace).
const defaultShutdownGrace = 10 * time.Second

// inFlight counts the requests the service is handling, so that a shutdown
// that cuts some off can say how many.
type inFlight struct{ n atomic.Int64 }

func (f *inFlight) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.n.Add(1)
		defer f.n.Add(-1)
		h.ServeHTTP(w, r)
	})
}

// shutdownHTTP stops the servers, letting requests in flight finish for up
// to grace, or until hurry ends. Requests still running then are cut off
// (their connections closed) and the log says how many and what it means:
// no reply was sent to them, so nothing their clients were told is undone.
func shutdownHTTP(hurry context.Context, log *slog.Logger, grace time.Duration, running *inFlight, servers ...*http.Server) error {
	ctx, cancel := context.WithTimeout(hurry, grace)
	defer cancel()
	errs := make(chan error, len(servers))
	for _, hs := range servers {
		go func() { errs <- hs.Shutdown(ctx) }()
	}
	var err error
	for range servers {
		err = errors.Join(err, <-errs)
	}
	if err == nil || ctx.Err() == nil {
		return err
	}
	n := running.n.Load()
	for _, hs := range servers {
		hs.Close()
	}
	when := fmt.Sprintf("still in flight after %s", grace)
	if hurry.Err() != nil {
		when = "in flight at the second signal"
	}
	log.Warn(fmt.Sprintf("%d request(s) %s were cut off: their clients got no reply "+
		"(a submit among them may or may not have been recorded, which its client reports as an unknown outcome to check); "+
		"every request answered stands and queued writes still commit", n, when), "requests", n)
	return nil
}
