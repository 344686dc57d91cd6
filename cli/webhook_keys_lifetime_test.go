package cli

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui"
	"github.com/vigil-console/vigil/webhook"
)

// `vigil webhook keys` tells operators how long receivers keep the key set,
// which is how long a rotated-out key still verifies there. It must say what
// JWKSCache really does with the same reply: here both read the local
// service's set, served with the service's own headers and with others
// (an overflowing max-age, no-store, Age, stale-if-error), and the line the
// command prints is compared with the lifetime measured on JWKSCache's clock.
func TestWebhookKeysShowsLifetimeReceiversUse(t *testing.T) {
	resp, body := localJWKS(t, newVerbEnv(t))
	var set api.JWKS
	if err := json.Unmarshal(body, &set); err != nil || len(set.Keys) == 0 {
		t.Fatalf("the service's key set %q: %v", body, err)
	}
	kid := set.Keys[0].Kid

	for _, tc := range []struct{ name, cc, age string }{
		{"the service's own", resp.Header.Get("Cache-Control"), resp.Header.Get("Age")},
		{"overflowing max-age", "public, max-age=9223372036854775807", ""},
		{"no-store", "public, max-age=86400, no-store", ""},
		{"aged in a shared cache", "max-age=86400, stale-if-error=604800", "3600"},
		{"none", "", ""},
		{"short max-age, overflowing stale-if-error", "max-age=5, stale-if-error=99999999999999999999999", ""},
		{"served stale by a CDN near the end of stale-if-error", "max-age=86400, stale-if-error=604800", "691140"},
		{"must-revalidate", "max-age=60, must-revalidate, stale-if-error=604800", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var hits atomic.Int32
			var fail atomic.Bool
			url, out := webhookKeysOf(t, func(w http.ResponseWriter, r *http.Request) {
				hits.Add(1)
				if fail.Load() {
					http.Error(w, "down", http.StatusServiceUnavailable)
					return
				}
				w.Header().Set("Content-Type", "application/json")
				if tc.cc != "" {
					w.Header().Set("Cache-Control", tc.cc)
				}
				if tc.age != "" {
					w.Header().Set("Age", tc.age)
				}
				w.Write(body)
			})
			fresh, stale := measureCache(t, url, kid, &hits, &fail)
			want := "receivers keep it: " + ui.HumanDuration(fresh)
			if fresh == webhook.MinRefetchInterval {
				want += " (the least time between two fetches)"
			}
			if stale > 0 {
				want += ", and up to " + ui.HumanDuration(stale) + " more while it cannot be fetched"
			}
			if !strings.Contains(out, want+"\n") {
				t.Errorf("Cache-Control %q, Age %q: JWKSCache keeps the set %s (then %s while refetching fails); keys printed:\n%s\nwant the line %q",
					tc.cc, tc.age, fresh, stale, out, want)
			}
		})
	}
}

// measureCache finds, on a JWKSCache's clock, how long it uses a set fetched
// from url without fetching it again (fresh), and how much longer it still
// verifies with it while fetching fails (stale), to the second.
func measureCache(t *testing.T, url, kid string, hits *atomic.Int32, fail *atomic.Bool) (fresh, stale time.Duration) {
	t.Helper()
	ctx := context.Background()
	// probe fetches the set at a start instant, then asks for kid d later.
	probe := func(d time.Duration, failLater bool) (refetched, usable bool) {
		var mu sync.Mutex
		now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		c := webhook.NewJWKSCache(url, nil, func() time.Time { mu.Lock(); defer mu.Unlock(); return now })
		fail.Store(false)
		if _, err := c.Key(ctx, kid); err != nil {
			t.Fatalf("first fetch: %v", err)
		}
		before := hits.Load()
		fail.Store(failLater)
		defer fail.Store(false)
		mu.Lock()
		now = now.Add(d)
		mu.Unlock()
		_, err := c.Key(ctx, kid)
		return hits.Load() > before, err == nil
	}
	// first is the least whole number of seconds (up to 60 days) at which
	// pred holds, pred being false before it and true from it on.
	first := func(pred func(time.Duration) bool) time.Duration {
		lo, hi := time.Duration(0), 60*24*time.Hour
		if !pred(hi) {
			t.Fatalf("JWKSCache still behaves the same after %s", hi)
		}
		for hi-lo > time.Second {
			mid := lo + (hi-lo)/2
			mid -= mid % time.Second
			if pred(mid) {
				hi = mid
			} else {
				lo = mid
			}
		}
		if pred(lo) {
			return lo
		}
		return hi
	}
	fresh = first(func(d time.Duration) bool { refetched, _ := probe(d, false); return refetched })
	unusable := first(func(d time.Duration) bool { _, usable := probe(d, true); return !usable })
	return fresh, unusable - fresh
}
