package webhook

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

func TestJWKSCacheHonoursMaxAge(t *testing.T) {
	ring, _ := NewKeyRing()
	srv := ringEndpoint(t, ring)
	clock := newFakeClock()
	cache := NewJWKSCache(srv.URL(), srv.Client(), clock.Now)
	ctx := context.Background()
	kid := ring.ActiveKeyID()

	want := publishedKey(t, ring.JWKS(), kid)
	for range 3 {
		pub, err := cache.Key(ctx, kid)
		if err != nil {
			t.Fatal(err)
		}
		if !pub.Equal(want) {
			t.Fatal("cache returned a different key than published")
		}
		clock.Advance(8 * time.Hour) // 24h total stays within max-age=86400
	}
	if n := srv.hits.Load(); n != 1 {
		t.Fatalf("%d fetches within max-age, want 1", n)
	}
	clock.Advance(time.Second) // 24h + 1s since the fetch
	if _, err := cache.Key(ctx, kid); err != nil {
		t.Fatal(err)
	}
	if n := srv.hits.Load(); n != 2 {
		t.Fatalf("%d fetches after max-age passed, want 2", n)
	}
	// Expired again, and the kid is unknown: the expiry refetch is the one
	// refetch, not followed by a second.
	clock.Advance(25 * time.Hour)
	if _, err := cache.Key(ctx, "not-a-key"); !errors.Is(err, ErrUnknownKey) {
		t.Fatalf("unknown kid: %v", err)
	}
	if n := srv.hits.Load(); n != 3 {
		t.Fatalf("%d fetches, want 3", n)
	}
}

func TestJWKSCacheReturnsCopies(t *testing.T) {
	ring, _ := NewKeyRing()
	srv := ringEndpoint(t, ring)
	cache := NewJWKSCache(srv.URL(), srv.Client(), newFakeClock().Now)
	kid := ring.ActiveKeyID()
	pub, _ := cache.Key(context.Background(), kid)
	pub[0] ^= 0xff
	again, _ := cache.Key(context.Background(), kid)
	if !again.Equal(publishedKey(t, ring.JWKS(), kid)) {
		t.Fatal("a caller changing a returned key changed the cache")
	}
}

func TestJWKSCacheUnknownKidRefetchesOnceThenFindsRotatedKey(t *testing.T) {
	ring, _ := NewKeyRing()
	srv := ringEndpoint(t, ring)
	clock := newFakeClock()
	cache := NewJWKSCache(srv.URL(), srv.Client(), clock.Now)
	ctx := context.Background()
	if _, err := cache.Key(ctx, ring.ActiveKeyID()); err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Hour)

	// The service rotates; a delivery signed with the new key arrives.
	newKid, _ := ring.Rotate()
	now := clock.Now()
	h, _ := ring.Sign(testOrg, "evt-7", now, testBody)
	if _, err := VerifyContext(ctx, h, testBody, cache, now, 0); err != nil {
		t.Fatalf("delivery with rotated key %s: %v", newKid, err)
	}
	if n := srv.hits.Load(); n != 2 {
		t.Fatalf("%d fetches, want 2 (initial + one refetch for the new kid)", n)
	}

	// A kid nobody published: exactly one refetch, then ErrUnknownKey.
	clock.Advance(time.Minute)
	if _, err := cache.Key(ctx, "not-a-key"); !errors.Is(err, ErrUnknownKey) {
		t.Fatalf("unknown kid: %v, want ErrUnknownKey", err)
	}
	if n := srv.hits.Load(); n != 3 {
		t.Fatalf("%d fetches, want 3 (one refetch for the unknown kid)", n)
	}
	// A flood of unknown kids right after does not reach the server.
	for i := range 100 {
		if _, err := cache.Key(ctx, "flood-"+string(rune('a'+i%26))); !errors.Is(err, ErrUnknownKey) {
			t.Fatalf("flood kid: %v, want ErrUnknownKey", err)
		}
	}
	if n := srv.hits.Load(); n != 3 {
		t.Fatalf("%d fetches after a flood of unknown kids, want still 3", n)
	}
	// Known keys keep working during the flood.
	if _, err := cache.Key(ctx, newKid); err != nil {
		t.Fatal(err)
	}
	// Once MinRefetchInterval has passed, an unknown kid may refetch again.
	clock.Advance(MinRefetchInterval)
	cache.Key(ctx, "not-a-key")
	if n := srv.hits.Load(); n != 4 {
		t.Fatalf("%d fetches, want 4 after MinRefetchInterval", n)
	}
}

func TestJWKSCacheStaleIfError(t *testing.T) {
	ring, _ := NewKeyRing()
	srv := ringEndpoint(t, ring)
	clock := newFakeClock()
	cache := NewJWKSCache(srv.URL(), srv.Client(), clock.Now)
	ctx := context.Background()
	kid := ring.ActiveKeyID()
	if _, err := cache.Key(ctx, kid); err != nil {
		t.Fatal(err)
	}
	srv.fail.Store(true)

	// Expired, the refetch fails: within stale-if-error=604800 the old keys
	// still serve.
	clock.Advance(24*time.Hour + time.Minute)
	if _, err := cache.Key(ctx, kid); err != nil {
		t.Fatalf("within stale-if-error: %v", err)
	}
	if n := srv.hits.Load(); n != 2 {
		t.Fatalf("%d fetches, want 2", n)
	}
	// Past max-age + stale-if-error: the keys may no longer be used.
	clock.Advance(7 * 24 * time.Hour)
	_, err := cache.Key(ctx, kid)
	if !errors.Is(err, ErrJWKSUnavailable) {
		t.Fatalf("past stale-if-error: %v, want ErrJWKSUnavailable", err)
	}
	if !strings.Contains(err.Error(), "503") {
		t.Errorf("error %q does not say what the server answered", err)
	}
	// Right after a failure the server is not asked again.
	before := srv.hits.Load()
	cache.Key(ctx, kid)
	if n := srv.hits.Load(); n != before {
		t.Fatalf("refetched %d times within MinRefetchInterval of a failure", n-before)
	}
	// The service recovers.
	srv.fail.Store(false)
	clock.Advance(MinRefetchInterval)
	if _, err := cache.Key(ctx, kid); err != nil {
		t.Fatalf("after recovery: %v", err)
	}
}

func TestJWKSCacheFirstFetchFails(t *testing.T) {
	ring, _ := NewKeyRing()
	srv := ringEndpoint(t, ring)
	srv.fail.Store(true)
	cache := NewJWKSCache(srv.URL(), srv.Client(), newFakeClock().Now)
	if _, err := cache.Key(context.Background(), ring.ActiveKeyID()); !errors.Is(err, ErrJWKSUnavailable) {
		t.Fatalf("%v, want ErrJWKSUnavailable", err)
	}
}

func TestJWKSCacheIgnoresBadEntries(t *testing.T) {
	ring, _ := NewKeyRing()
	good := ring.JWKS().Keys[0]
	other, _ := NewKeyRing()
	dup := other.JWKS().Keys[0]
	dup.Kid = "dup"
	dupTwin, _ := NewKeyRing()
	dup2 := dupTwin.JWKS().Keys[0]
	dup2.Kid = "dup"

	bad := func(name string, f func(k *api.JWK)) api.JWK {
		k := good
		k.Kid = name
		f(&k)
		return k
	}
	set := api.JWKS{Keys: []api.JWK{
		bad("kty", func(k *api.JWK) { k.Kty = "EC" }),
		bad("crv", func(k *api.JWK) { k.Crv = "X25519" }),
		bad("alg", func(k *api.JWK) { k.Alg = "ES256" }),
		bad("use", func(k *api.JWK) { k.Use = "enc" }),
		bad("algo", func(k *api.JWK) { k.ServiceSignatureAlgorithm = "hmac" }),
		bad("version", func(k *api.JWK) { k.ServiceSignatureVersion = "v2" }),
		bad("short-x", func(k *api.JWK) { k.X = k.X[:20] }),
		bad("not-b64", func(k *api.JWK) { k.X = "!!!" + k.X[3:] }),
		bad("has.dot", func(k *api.JWK) {}),
		dup, dup2,
		good,
	}}
	srv := newJWKSEndpoint(t, func() any { return set })
	cache := NewJWKSCache(srv.URL(), srv.Client(), newFakeClock().Now)
	ctx := context.Background()
	if _, err := cache.Key(ctx, good.Kid); err != nil {
		t.Fatalf("good entry: %v", err)
	}
	for _, k := range set.Keys[:len(set.Keys)-1] {
		if _, err := cache.Key(ctx, k.Kid); !errors.Is(err, ErrUnknownKey) {
			t.Errorf("entry %q: %v, want ErrUnknownKey", k.Kid, err)
		}
	}
}

func TestJWKSCacheRejectsBadReplies(t *testing.T) {
	ring, _ := NewKeyRing()
	good, _ := json.Marshal(ring.JWKS())
	for name, handler := range map[string]http.HandlerFunc{
		"oversized": func(w http.ResponseWriter, r *http.Request) {
			w.Write(good[:len(good)-2])
			w.Write([]byte(`,"pad":"` + strings.Repeat("x", MaxJWKSSize) + `"}`))
		},
		"not json":  func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("<html>")) },
		"404":       func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) },
		"redirect?": func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNotModified) },
	} {
		t.Run(name, func(t *testing.T) {
			srv := httptest.NewServer(handler)
			defer srv.Close()
			cache := NewJWKSCache(srv.URL, srv.Client(), newFakeClock().Now)
			if _, err := cache.Key(context.Background(), ring.ActiveKeyID()); !errors.Is(err, ErrJWKSUnavailable) {
				t.Fatalf("%v, want ErrJWKSUnavailable", err)
			}
		})
	}
}

func TestParseCacheControl(t *testing.T) {
	for _, tc := range []struct {
		in         []string
		age, stale time.Duration
	}{
		{[]string{api.JWKSCacheControl}, 86400 * time.Second, 604800 * time.Second},
		{[]string{"public", "MAX-AGE=60"}, time.Minute, 0},
		{[]string{"max-age=60, no-cache"}, 0, 0},
		{[]string{"max-age=-5"}, 0, 0},
		{[]string{"max-age=99999999999999999999"}, maxCacheAge, 0},
		{nil, 0, 0},
	} {
		cc := parseCacheControl(tc.in)
		if age, stale := cc.maxAge, cc.staleIfErr; age != tc.age || stale != tc.stale {
			t.Errorf("parseCacheControl(%q) = %s, %s; want %s, %s", tc.in, age, stale, tc.age, tc.stale)
		}
	}
}

// Many receivers' goroutines asking at once share one fetch.
func TestJWKSCacheConcurrentLookupsShareFetch(t *testing.T) {
	ring, _ := NewKeyRing()
	release := make(chan struct{})
	var hits sync.WaitGroup
	hits.Add(1)
	var once sync.Once
	srv := newJWKSEndpoint(t, func() any {
		once.Do(hits.Done)
		<-release
		return ring.JWKS()
	})
	cache := NewJWKSCache(srv.URL(), srv.Client(), newFakeClock().Now)
	var wg, waiting sync.WaitGroup
	for range 20 {
		waiting.Add(1)
		ctx := &waitSignalCtx{Context: context.Background(), waiting: waiting.Done}
		wg.Go(func() {
			if _, err := cache.Key(ctx, ring.ActiveKeyID()); err != nil {
				t.Error(err)
			}
		})
	}
	hits.Wait()
	waiting.Wait() // every lookup is waiting on the fetch in flight
	close(release)
	wg.Wait()
	if n := srv.hits.Load(); n != 1 {
		t.Fatalf("%d fetches for 20 concurrent lookups, want 1", n)
	}
}

// A caller that gives up does not fail the shared fetch for the others.
func TestJWKSCacheCallerCancel(t *testing.T) {
	ring, _ := NewKeyRing()
	release := make(chan struct{})
	srv := newJWKSEndpoint(t, func() any { <-release; return ring.JWKS() })
	cache := NewJWKSCache(srv.URL(), srv.Client(), newFakeClock().Now)
	ctx, cancel := context.WithCancel(context.Background())
	waiting := make(chan struct{})
	sctx := &waitSignalCtx{Context: ctx, waiting: func() { close(waiting) }}
	errc := make(chan error)
	go func() { _, err := cache.Key(sctx, ring.ActiveKeyID()); errc <- err }()
	<-waiting // the caller waits on the fetch
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled caller: %v", err)
	}
	close(release)
	if _, err := cache.Key(context.Background(), ring.ActiveKeyID()); err != nil {
		t.Fatalf("after a cancelled caller: %v", err)
	}
	if n := srv.hits.Load(); n != 1 {
		t.Fatalf("%d fetches, want 1", n)
	}
}

// waitSignalCtx reports the first time a lookup asks for Done: the cache does
// so only when it waits for a fetch, so the test knows every lookup queued
// behind the one fetch without sleeping.
type waitSignalCtx struct {
	context.Context
	once    sync.Once
	waiting func()
}

func (c *waitSignalCtx) Done() <-chan struct{} {
	c.once.Do(c.waiting)
	return c.Context.Done()
}
