package api

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"
)

// A Retry-After HTTP-date far in the future is capped at a day, as the
// seconds form is: Error.RetryAfter is documented as at most a day, and an
// uncapped date saturated time.Duration, telling the user to wait
// 2562047h47m16s.
func TestRetryAfterFarFutureDateIsCappedAtADay(t *testing.T) {
	s := newTestService(t, func(_ int, _ recorded, w http.ResponseWriter) {
		w.Header().Set("Retry-After", "Fri, 31 Dec 9999 23:59:59 GMT")
		writeJSON(w, 429, `{"code":8,"message":"too many requests"}`)
	})
	_, err := s.client(t).ListPolicies(context.Background())
	var apiErr *Error
	if !errors.As(err, &apiErr) {
		t.Fatalf("err %v, want an *api.Error", err)
	}
	if apiErr.RetryAfter != retryAfterCeiling {
		t.Errorf("RetryAfter = %v, want the %v ceiling", apiErr.RetryAfter, retryAfterCeiling)
	}
	if msg := err.Error(); !strings.Contains(msg, "a day or more") || strings.Contains(msg, "2562047h") {
		t.Errorf("error %q, want it to say the service asks to wait a day or more", msg)
	}

	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for in, want := range map[string]time.Duration{
		"Fri, 31 Dec 9999 23:59:59 GMT": retryAfterCeiling,
		"Sat, 03 Jan 2026 00:00:00 GMT": retryAfterCeiling,
		"Thu, 01 Jan 2026 23:00:00 GMT": 23 * time.Hour,
		"999999999":                     retryAfterCeiling,
	} {
		if got := parseRetryAfter(in, now); got != want {
			t.Errorf("parseRetryAfter(%q) = %s, want %s", in, got, want)
		}
	}
}
