package webhook

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// A key set reply with no usable key ({"keys":[]}, {}, only entries a
// receiver must skip) is a broken reply, not a revocation: the service
// always publishes its active key. It must not replace the good set the
// cache holds, or every genuine delivery is refused until the next fetch; it
// counts as a failed fetch, reported as such.
func TestJWKSCacheKeepsGoodKeysOverEmptyReply(t *testing.T) {
	ring, err := NewKeyRing()
	if err != nil {
		t.Fatal(err)
	}
	goodSet, err := json.Marshal(ring.JWKS())
	if err != nil {
		t.Fatal(err)
	}
	skipOnly := ring.JWKS()
	skipOnly.Keys[0].Kty = "EC"
	skipOnlySet, _ := json.Marshal(skipOnly)
	var reply atomic.Pointer[json.RawMessage]
	set := func(b []byte) { m := json.RawMessage(b); reply.Store(&m) }
	set(goodSet)
	srv := newJWKSEndpoint(t, func() any { return reply.Load() })
	clock := newFakeClock()
	cache := NewJWKSCache(srv.URL(), srv.Client(), clock.Now)
	ctx := context.Background()

	verifies := func(what string) {
		t.Helper()
		h, err := ring.Sign(testOrg, "evt-1", clock.Now(), testBody)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := VerifyForOrganization(ctx, testOrg, h, testBody, cache, clock.Now(), 0); err != nil {
			t.Fatalf("%s: a genuine delivery is refused: %v", what, err)
		}
	}
	verifies("good set")
	for _, bad := range []string{`{"keys":[]}`, `{}`, string(skipOnlySet)} {
		set([]byte(bad))
		before := srv.hits.Load()
		clock.Advance(24*time.Hour + time.Minute) // past max-age: refetched
		verifies("after the reply " + bad)
		if srv.hits.Load() == before {
			t.Fatalf("the cache did not refetch the expired set")
		}
		// The bad fetch is reported: a kid the set lacks says refreshing it
		// failed, naming where from.
		clock.Advance(MinRefetchInterval)
		_, err := cache.Key(ctx, "not-a-key")
		if !errors.Is(err, ErrUnknownKey) || !strings.Contains(err.Error(), srv.URL()) {
			t.Errorf("after the reply %s, an unknown kid: %v; want ErrUnknownKey naming the failed fetch of %s", bad, err, srv.URL())
		}
	}

	// A first fetch without a usable key leaves nothing to verify with: the
	// key set is unavailable (receivers answer 503, the service retries).
	fresh := NewJWKSCache(srv.URL(), srv.Client(), newFakeClock().Now)
	if _, err := fresh.Key(ctx, ring.ActiveKeyID()); !errors.Is(err, ErrJWKSUnavailable) {
		t.Errorf("a first reply without a usable key: %v; want ErrJWKSUnavailable", err)
	}
}
