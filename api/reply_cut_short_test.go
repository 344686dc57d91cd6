package api

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"
)

// A reply whose headers came and whose body did not is said in plain words,
// naming the host and what to do, not as Go's "read reply: context deadline
// exceeded (Client.Timeout or context cancellation while reading body)"; a
// submit's stays an unknown outcome.
func TestReplyCutShortSaysWhatHappened(t *testing.T) {
	t.Run("stalled", func(t *testing.T) {
		stop := make(chan struct{})
		s := newTestService(t, func(n int, r recorded, w http.ResponseWriter) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"organizationId":`))
			w.(http.Flusher).Flush()
			<-stop // the body never ends: the client gives up
		})
		t.Cleanup(func() { close(stop) }) // before the server closes
		c := s.client(t, WithHTTPClient(&http.Client{Timeout: time.Second}), WithRetryPolicy(0, 0, 0))
		_, err := c.Whoami(context.Background())
		if err == nil || !strings.Contains(err.Error(), "the reply from "+s.srv.Listener.Addr().String()+" (HTTP 200) did not finish arriving within 1s (18 bytes came); the service or the network is slow, try again") {
			t.Errorf("query: %v", err)
		}
		_, err = c.CreateReadOnlySession(context.Background())
		if !errors.Is(err, ErrOutcomeUnknown) || !strings.Contains(err.Error(), "did not finish arriving within 1s") {
			t.Errorf("submit: %v", err)
		}
	})
	t.Run("cut", func(t *testing.T) {
		s := newTestService(t, func(n int, r recorded, w http.ResponseWriter) {
			w.Header().Set("Content-Length", "100")
			_, _ = w.Write([]byte(`{"organizationId":`)) // and the handler ends: the server closes the connection
		})
		c := s.client(t, WithRetryPolicy(0, 0, 0))
		_, err := c.Whoami(context.Background())
		if err == nil || !strings.Contains(err.Error(), s.srv.Listener.Addr().String()+" closed the connection before its reply (HTTP 200) was complete (18 bytes came); try again") {
			t.Errorf("query: %v", err)
		}
	})
}
