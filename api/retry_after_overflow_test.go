package api

import (
	"context"
	"net/http"
	"testing"
)

// A Retry-After too large for an int is a wait far over a minute: the query
// gives up at once, as for any Retry-After over a minute (docs/cli.md), rather
// than reading it as no Retry-After and asking three more times.
func TestRetryAfterTooLargeForAnIntGivesUp(t *testing.T) {
	for _, v := range []string{"99999999999999999999", "86400000000000000000000"} {
		s := newTestService(t, func(_ int, _ recorded, w http.ResponseWriter) {
			w.Header().Set("Retry-After", v)
			writeJSON(w, 503, `{"code":14,"message":"down for maintenance"}`)
		})
		_, _ = s.client(t).ListPolicies(context.Background())
		if n := len(s.requests()); n != 1 {
			t.Errorf("Retry-After: %s: %d requests, want 1 (a wait longer than a minute gives up at once)", v, n)
		}
	}
}
