package api

import (
	"context"
	"errors"
	"io"
	"net/http"
	"testing"
)

// relayTransport is a RoundTripper a library user may pass with
// WithHTTPClient (a relay, a test double, an instrumentation wrapper that
// re-issues the request on its own context): it delivers the request, then
// loses the reply. It fires no httptrace hook of the caller's context.
type relayTransport struct{ inner http.RoundTripper }

func (r relayTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := r.inner.RoundTrip(req.Clone(context.Background()))
	if err != nil {
		return nil, err
	}
	resp.Body.Close()
	return nil, io.ErrUnexpectedEOF // the reply was lost after the service got the request
}

// A submit the service received must never be reported "not sent": the
// user would send it again and duplicate it. A transport that fires none of
// the request's trace hooks shows nothing about what it wrote, so its
// silence proves nothing.
func TestDeliveredSubmitThroughCustomTransportIsOutcomeUnknown(t *testing.T) {
	s := newTestService(t, func(_ int, _ recorded, w http.ResponseWriter) { w.WriteHeader(500) })
	c := s.client(t, WithHTTPClient(&http.Client{Transport: relayTransport{http.DefaultTransport}}))
	_, err := c.CreateUserTag(context.Background(), CreateUserTagParams{UserTagName: "t"})
	if n := len(s.requests()); n != 1 {
		t.Fatalf("the service got %d requests, want 1", n)
	}
	if errors.Is(err, ErrNotSent) || !errors.Is(err, ErrOutcomeUnknown) {
		t.Errorf("a submit the service received is reported as: %v (want outcome unknown)", err)
	}
}
