package webhook

import (
	"context"
	"testing"
	"time"
)

// A receiver's key cache is private: proxy-revalidate and s-maxage bind only
// shared caches (RFC 9111 §5.2.2.8, §5.2.2.10). A publisher that lets end
// clients ride out an outage with stale-if-error must see its receivers keep
// verifying while the key set cannot be fetched.
func TestSharedCacheDirectivesDoNotBindAReceiver(t *testing.T) {
	ring, _ := NewKeyRing()
	kid := ring.ActiveKeyID()
	for _, cc := range []string{
		"public, max-age=60, proxy-revalidate, stale-if-error=86400",
		"public, max-age=60, s-maxage=0, Proxy-Revalidate, stale-if-error=86400",
	} {
		if !trustedWhileDown(t, servedWith(t, ring, []string{cc}, ""), kid, time.Hour) {
			t.Errorf("%q: deliveries refused an hour after the set was fetched, within its stale-if-error of a day", cc)
		}
	}
}

// fetchesIn counts the fetches of the key set a receiver makes while it
// verifies a delivery every MinRefetchInterval for d.
func fetchesIn(t *testing.T, e *jwksEndpoint, kid string, d time.Duration) int32 {
	t.Helper()
	clk := newFakeClock()
	c := NewJWKSCache(e.URL(), nil, clk.Now)
	for end := clk.Now().Add(d); clk.Now().Before(end); clk.Advance(MinRefetchInterval) {
		if _, err := c.Key(context.Background(), kid); err != nil {
			t.Fatalf("key %s: %v", kid, err)
		}
	}
	return e.hits.Load()
}

// checkHourAndDay checks that ring's set served with cc (max-age an hour,
// stale-if-error a day) is fetched once in 10 minutes and still verifies 2
// hours after it was fetched while it cannot be fetched.
func checkHourAndDay(t *testing.T, ring *KeyRing, kid, cc string) {
	t.Helper()
	if n := fetchesIn(t, servedWith(t, ring, []string{cc}, ""), kid, 10*time.Minute); n != 1 {
		t.Errorf("%q: %d fetches in 10 minutes, want 1 (max-age is an hour)", cc, n)
	}
	if !trustedWhileDown(t, servedWith(t, ring, []string{cc}, ""), kid, 2*time.Hour) {
		t.Errorf("%q: deliveries refused 2 hours after the set was fetched, within its stale-if-error of a day", cc)
	}
}

// no-cache="field" forbids reusing the named header fields only (RFC 9111
// §5.2.2.4); the key set itself stays cacheable for max-age and usable under
// stale-if-error. Read as a bare no-cache, it made receivers refetch every
// 10 s and refuse every delivery at the first failed fetch.
func TestQualifiedNoCacheKeepsTheSet(t *testing.T) {
	ring, _ := NewKeyRing()
	kid := ring.ActiveKeyID()
	for _, cc := range []string{
		`max-age=3600, no-cache="Set-Cookie", stale-if-error=86400`,
		`max-age=3600, no-cache="Set-Cookie, Vary", stale-if-error=86400`,
	} {
		checkHourAndDay(t, ring, kid, cc)
	}
	// The bare form still allows no caching at all.
	if n := fetchesIn(t, servedWith(t, ring, []string{"max-age=3600, no-cache"}, ""), kid, time.Minute); n < 2 {
		t.Errorf("bare no-cache: %d fetch in a minute, want a refetch every %s", n, MinRefetchInterval)
	}
}

// A comma inside a quoted string is not a list separator (RFC 9110 §5.6.4):
// the text of an extension directive must not count as a second, conflicting
// max-age. Directive names are case-insensitive and max-age may be quoted.
func TestCacheControlQuotedStrings(t *testing.T) {
	ring, _ := NewKeyRing()
	kid := ring.ActiveKeyID()
	for _, cc := range []string{
		`max-age=3600, stale-if-error=86400, x-note="see docs, max-age=5"`,
		`max-age=3600, x-note="a \"quoted, max-age=5\" part", stale-if-error=86400`,
		`MAX-AGE="3600", Stale-If-Error=86400`,
	} {
		checkHourAndDay(t, ring, kid, cc)
	}
}

// Age is a single number (RFC 9111 §5.1). A comma-joined list is invalid;
// reading it as 0 would trust a set a CDN says is old as if it were new, so
// the largest value counts, as when Age is repeated on two lines.
func TestAgeListTrustsTheOldestClaim(t *testing.T) {
	ring, _ := NewKeyRing()
	kid := ring.ActiveKeyID()
	const cc = "max-age=600, stale-if-error=60"
	// 700 s old: past max-age and its stale-if-error, so kept only until the
	// next allowed fetch; read as new, it would be kept 11 minutes.
	e := servedWith(t, ring, []string{cc}, "100, 700")
	if trustedWhileDown(t, e, kid, 5*time.Minute) {
		t.Errorf("Age \"100, 700\" with %q: the set still verifies 5 minutes later while it cannot be fetched, though the reply was past max-age", cc)
	}
}
