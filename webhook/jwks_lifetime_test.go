package webhook

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"testing"
	"time"
)

// servedWith publishes ring's keys with the given Cache-Control lines and Age.
func servedWith(t *testing.T, ring *KeyRing, cc []string, age string) *jwksEndpoint {
	t.Helper()
	return serveJWKS(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		for _, v := range cc {
			w.Header().Add("Cache-Control", v)
		}
		if age != "" {
			w.Header().Set("Age", age)
		}
		json.NewEncoder(w).Encode(ring.JWKS())
	}))
}

// trustedWhileDown fetches the set, makes the endpoint fail, advances the
// clock by d and reports whether the cache still hands out the key.
func trustedWhileDown(t *testing.T, e *jwksEndpoint, kid string, d time.Duration) bool {
	t.Helper()
	clk := newFakeClock()
	c := NewJWKSCache(e.URL(), nil, clk.Now)
	if _, err := c.Key(context.Background(), kid); err != nil {
		t.Fatalf("first fetch: %v", err)
	}
	e.fail.Store(true)
	defer e.fail.Store(false)
	clk.Advance(d)
	_, err := c.Key(context.Background(), kid)
	if err != nil && !errors.Is(err, ErrJWKSUnavailable) {
		t.Fatalf("unexpected error: %v", err)
	}
	return err == nil
}

// A CDN in front of the service serves the set while it is itself under
// stale-if-error, 60 s before that ends (Age = max-age + stale-if-error -
// 60). The publisher allows 60 s more use: the receiver must not start a
// whole stale-if-error of its own, which would let a leaked, rotated-out key
// verify forged deliveries a week longer than documented.
func TestStaleIfErrorCountsFromWhenTheReplyWentStale(t *testing.T) {
	ring, _ := NewKeyRing()
	kid := ring.ActiveKeyID()
	const cc = "max-age=86400, stale-if-error=604800"
	age := strconv.Itoa(86400 + 604800 - 60)
	fresh, stale := CacheLifetime(http.Header{"Cache-Control": {cc}, "Age": {age}})
	if fresh+stale > time.Minute+MinRefetchInterval {
		t.Errorf("Age %s: kept %s then %s more while the set cannot be fetched, want at most the 60 s of stale-if-error left (or the %s between fetches)",
			age, fresh, stale, MinRefetchInterval)
	}
	if trustedWhileDown(t, servedWith(t, ring, []string{cc}, age), kid, time.Hour) {
		t.Errorf("a set served with Age %s, 60 s before its stale-if-error ends, still verifies an hour later while the key set cannot be fetched", age)
	}
	// Served while still fresh, an hour old: all of stale-if-error is left.
	fresh, stale = CacheLifetime(http.Header{"Cache-Control": {cc}, "Age": {"3600"}})
	if fresh != 23*time.Hour || stale != 7*24*time.Hour {
		t.Errorf("Age 3600: kept %s then %s more, want 23h then 7d", fresh, stale)
	}
}

// no-store, no-cache and must-revalidate forbid using a stale reply (RFC 9111 §4.2.4, §5.2.2.2): with any of them, stale-if-error
// gives no extra time while the key set cannot be fetched.
func TestRevalidateDirectivesStopStaleUse(t *testing.T) {
	ring, _ := NewKeyRing()
	kid := ring.ActiveKeyID()
	for _, cc := range []string{
		"no-store, stale-if-error=604800",
		"no-cache, stale-if-error=604800",
		"max-age=60, must-revalidate, stale-if-error=604800",
		"max-age=60, Must-Revalidate, stale-if-error=604800",
	} {
		if _, stale := CacheLifetime(http.Header{"Cache-Control": {cc}}); stale != 0 {
			t.Errorf("%q: kept up to %s more while the set cannot be fetched, want no more", cc, stale)
		}
		if trustedWhileDown(t, servedWith(t, ring, []string{cc}, ""), kid, time.Hour) {
			t.Errorf("%q: the set still verifies an hour later while the key set cannot be fetched", cc)
		}
	}
}

// A directive repeated with another value (a proxy adds a second
// Cache-Control line) must not stretch the trust in the set: such a reply
// counts as stale, whichever value comes last.
func TestConflictingCacheDirectivesTrustLess(t *testing.T) {
	ring, _ := NewKeyRing()
	kid := ring.ActiveKeyID()
	for _, lines := range [][]string{
		{"max-age=60", "max-age=604800"},
		{"max-age=604800", "max-age=60"},
		{"max-age=60, stale-if-error=60", "stale-if-error=604800"},
	} {
		fresh, stale := CacheLifetime(http.Header{"Cache-Control": lines})
		if fresh+stale > 2*time.Minute {
			t.Errorf("Cache-Control %q: kept %s then %s more, want at most the shorter values (2m in all)", lines, fresh, stale)
		}
		e := servedWith(t, ring, lines, "")
		if trustedWhileDown(t, e, kid, time.Hour) {
			t.Errorf("Cache-Control %q: the set still verifies an hour later while the key set cannot be fetched", lines)
		}
	}
	// The same value twice is no conflict.
	if fresh, _ := CacheLifetime(http.Header{"Cache-Control": {"max-age=600", "max-age=600"}}); fresh != 10*time.Minute {
		t.Errorf("max-age=600 twice: kept %s, want 10m", fresh)
	}
}
