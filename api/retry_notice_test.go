package api

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"
)

// A 429 whose Retry-After runs past the caller's deadline is returned at
// once, saying the service is rate limiting and for how long: sleeping
// into the deadline would report "no answer in time" for a reply that came
// in milliseconds.
func TestRetryAfterPastTheDeadlineReturnsTheRateLimit(t *testing.T) {
	s := newTestService(t, func(_ int, _ recorded, w http.ResponseWriter) {
		w.Header().Set("Retry-After", "30")
		writeJSON(w, 429, `{"code":8,"message":"too many requests"}`)
	})
	// 20 s: shorter than the wait asked for, and longer than a loaded
	// machine takes for the first reply (which a 1.5 s deadline was not).
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, err := s.client(t).ListPolicies(ctx)
	if errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a 429 answered at once is reported as a timeout: %v", err)
	}
	var apiErr *Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 429 || !errors.Is(err, ErrRateLimited) {
		t.Fatalf("want the 429 itself, got %v", err)
	}
	if apiErr.RetryAfter != 30*time.Second {
		t.Errorf("RetryAfter = %v, want 30s", apiErr.RetryAfter)
	}
	if msg := err.Error(); !strings.Contains(msg, "rate limiting") || !strings.Contains(msg, "wait 30s") {
		t.Errorf("the message does not say the service is rate limiting and for how long: %s", msg)
	}
	if n := len(s.requests()); n != 1 {
		t.Errorf("%d requests, want 1: the wait would outlast the deadline", n)
	}
}

// Raw queries (Send) follow the same rule: the 429 comes back at once.
func TestSendReturnsA429WhoseWaitOutlastsTheDeadline(t *testing.T) {
	s := newTestService(t, func(_ int, _ recorded, w http.ResponseWriter) {
		w.Header().Set("Retry-After", "30")
		writeJSON(w, 429, `{"code":8,"message":"too many requests"}`)
	})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	reply, err := s.client(t).Send(ctx, "/public/v1/query/list_policies", []byte(`{"organizationId":"`+testOrg+`"}`))
	if err != nil || reply.Status != 429 {
		t.Fatalf("want the 429 reply, got %+v, %v", reply, err)
	}
}

// Before each retry the caller is told what failed and which attempt comes
// next; the final error says how many attempts were made.
func TestRetriesAreAnnouncedAndCounted(t *testing.T) {
	s := newTestService(t, func(_ int, _ recorded, w http.ResponseWriter) {
		writeJSON(w, 503, `{"code":14,"message":"unavailable"}`)
	})
	var notices []RetryNotice
	_, err := s.client(t, WithRetryNotice(func(n RetryNotice) { notices = append(notices, n) })).ListPolicies(context.Background())
	if err == nil {
		t.Fatal("a 503 every time succeeded")
	}
	if len(notices) != 3 {
		t.Fatalf("%d notices, want 3 (before attempts 2, 3, 4): %+v", len(notices), notices)
	}
	for i, n := range notices {
		if n.Next != i+2 || n.Max != 4 || n.Operation != "query/list_policies" || !strings.Contains(n.Err.Error(), "HTTP 503") {
			t.Errorf("notice %d = %+v", i, n)
		}
	}
	if !strings.Contains(err.Error(), "after 4 attempts over") {
		t.Errorf("the final error does not count the attempts: %v", err)
	}
}

// A service that never answers: the last error counts the attempts, each of
// the client's own per-attempt limit, rather than describing the last one
// alone.
func TestNoReplyCountsTheAttempts(t *testing.T) {
	hung := make(chan struct{})
	s := newTestService(t, func(int, recorded, http.ResponseWriter) { <-hung })
	t.Cleanup(func() { close(hung) }) // runs before the server's Close, which waits for the handlers
	var notices []RetryNotice
	c := s.client(t, WithHTTPClient(&http.Client{Timeout: 20 * time.Millisecond}),
		WithRetryNotice(func(n RetryNotice) { notices = append(notices, n) }))
	_, err := c.ListPolicies(context.Background())
	if err == nil || !strings.Contains(err.Error(), "no reply from") || !strings.Contains(err.Error(), "(4 attempts over") {
		t.Fatalf("want a no-reply error counting 4 attempts, got %v", err)
	}
	if len(notices) != 3 || !strings.Contains(notices[0].Err.Error(), "no reply from") {
		t.Errorf("notices %+v", notices)
	}
}
