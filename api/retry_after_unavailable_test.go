package api

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"
)

// A 503 whose Retry-After is longer than the client waits gives up at once,
// as a 429 does, and says how long the service asked to wait: "try again
// later" alone would send the user back within the hour the service asked
// for. The wait is the parsed header, at most a day, never its text.
func TestUnavailableReplySaysTheWaitItAskedFor(t *testing.T) {
	for _, tc := range []struct {
		name, header, body string
		want               time.Duration
		says               string
	}{
		{"gateway, an hour", "3600", `<html>down for maintenance</html>`, time.Hour, "it asks to wait 1h0m0s before trying again"},
		{"service, an hour", "3600", `{"code":14,"message":"unavailable"}`, time.Hour, "it asks to wait 1h0m0s before trying again"},
		{"busy, an hour", "3600", `{"code":14,"message":"busy","details":[{"errorCode":"BUSY"}]}`, time.Hour, "did not process the request; it asks to wait 1h0m0s"},
		{"years", "999999999", `{"code":14,"message":"unavailable"}`, retryAfterCeiling, "it asks to wait a day or more before trying again"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newTestService(t, func(_ int, _ recorded, w http.ResponseWriter) {
				w.Header().Set("Retry-After", tc.header)
				writeJSON(w, http.StatusServiceUnavailable, tc.body)
			})
			_, err := s.client(t).ListPolicies(context.Background())
			var apiErr *Error
			if !errors.As(err, &apiErr) {
				t.Fatalf("err %v, want an *api.Error", err)
			}
			if n := len(s.requests()); n != 1 {
				t.Errorf("%d requests, want 1: a wait over a minute gives up at once", n)
			}
			if apiErr.RetryAfter != tc.want {
				t.Errorf("RetryAfter = %v, want %v", apiErr.RetryAfter, tc.want)
			}
			if msg := err.Error(); !strings.Contains(msg, tc.says) || strings.Contains(msg, "try again later") {
				t.Errorf("error %q, want it to say %q and not only \"try again later\"", msg, tc.says)
			}
		})
	}
}
