package api

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"
)

// Send (vigil request) follows the typed queries' retry rule: a 429 that
// says "come back in an hour" is not sent again at once, and a short
// Retry-After is waited out rather than cut to the backoff.
func TestSendFollowsRetryAfterAsTypedQueries(t *testing.T) {
	const body = `{"organizationId":"org-7f3c"}`
	s := newTestService(t, func(_ int, _ recorded, w http.ResponseWriter) {
		w.Header().Set("Retry-After", "3600")
		writeJSON(w, 429, `{"code":8,"message":"slow down"}`)
	})
	c := s.client(t)
	c.sleep = func(context.Context, time.Duration) error { return nil }
	if _, err := c.ListPolicies(context.Background()); err == nil {
		t.Fatal("typed: no error")
	}
	typed := len(s.requests())
	r, err := c.Send(context.Background(), "/public/v1/query/list_policies", []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	if raw := len(s.requests()) - typed; raw != typed || r.Status != 429 {
		t.Errorf("Retry-After: 3600: typed query sent %d request(s), Send sent %d and returned %d", typed, raw, r.Status)
	}

	short := newTestService(t, func(n int, _ recorded, w http.ResponseWriter) {
		if n == 0 {
			w.Header().Set("Retry-After", "7")
			writeJSON(w, 429, `{"code":8,"message":"slow down"}`)
			return
		}
		writeJSON(w, 200, `{"policies":[]}`)
	})
	c = short.client(t)
	var waits []time.Duration
	c.sleep = func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil }
	r, err = c.Send(context.Background(), "/public/v1/query/list_policies", []byte(body))
	if err != nil || r.Status != 200 {
		t.Fatalf("Send after a short Retry-After: %v, %+v", err, r)
	}
	if len(waits) != 1 || waits[0] < 7*time.Second {
		t.Errorf("Retry-After: 7 should be waited out before asking again; waits %v", waits)
	}
}

// A reply refused as too large is not downloaded again: the same question
// gets the same answer.
func TestSendDoesNotAskAgainForATooLargeReply(t *testing.T) {
	big := `{"whoami":"` + strings.Repeat("x", MinReplyBytes) + `"}`
	s := newTestService(t, func(_ int, _ recorded, w http.ResponseWriter) { writeJSON(w, 200, big) })
	c := s.client(t, WithMaxReplyBytes(MinReplyBytes))
	c.sleep = func(context.Context, time.Duration) error { return nil }
	_, err := c.Send(context.Background(), "/public/v1/query/whoami", []byte(`{"organizationId":"org-7f3c"}`))
	if err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Fatalf("err = %v; want the reply refused as too large", err)
	}
	if n := len(s.requests()); n != 1 {
		t.Errorf("Send asked %d times for the same too-large reply", n)
	}
}

// A submit whose context ended before Send began was never sent: it is "not
// sent" (safe to run again), as the typed submits say, not an unknown outcome
// that sends the user to the activity list.
func TestSendCancelledBeforeSendingIsNotSent(t *testing.T) {
	s := newTestService(t, func(_ int, _ recorded, w http.ResponseWriter) { writeJSON(w, 200, activityReply) })
	c := s.client(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := c.Send(ctx, "/public/v1/submit/create_read_only_session", []byte(`{}`))
	if n := len(s.requests()); n != 0 {
		t.Fatalf("set-up: %d requests were sent", n)
	}
	if errors.Is(err, ErrOutcomeUnknown) || !errors.Is(err, ErrNotSent) || !NotRecorded(err) {
		t.Errorf("nothing was sent, but err = %v (ErrOutcomeUnknown=%v, ErrNotSent=%v)", err, errors.Is(err, ErrOutcomeUnknown), errors.Is(err, ErrNotSent))
	}
}
