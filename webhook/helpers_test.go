package webhook

import (
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// fakeClock is a settable clock for the JWKS cache.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// jwksEndpoint serves a key set the way the service does, counting fetches.
type jwksEndpoint struct {
	*httptest.Server
	hits atomic.Int32
	// fail, when set, makes the endpoint answer 503.
	fail atomic.Bool
}

func (e *jwksEndpoint) URL() string { return e.Server.URL + api.JWKSPath }

func newJWKSEndpoint(t *testing.T, set func() any) *jwksEndpoint {
	t.Helper()
	return serveJWKS(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", api.JWKSCacheControl)
		json.NewEncoder(w).Encode(set())
	}))
}

// ringEndpoint publishes ring's keys with JWKSHandler.
func ringEndpoint(t *testing.T, ring *KeyRing) *jwksEndpoint {
	return serveJWKS(t, JWKSHandler(ring))
}

func serveJWKS(t testing.TB, h http.Handler) *jwksEndpoint {
	t.Helper()
	e := &jwksEndpoint{}
	mux := http.NewServeMux()
	mux.HandleFunc(api.JWKSPath, func(w http.ResponseWriter, r *http.Request) {
		e.hits.Add(1)
		if e.fail.Load() {
			http.Error(w, "down", http.StatusServiceUnavailable)
			return
		}
		h.ServeHTTP(w, r)
	})
	e.Server = httptest.NewServer(mux)
	t.Cleanup(e.Close)
	return e
}

// publishedKey decodes kid's public key from a JWKS independently of the
// package's parser.
func publishedKey(t *testing.T, set api.JWKS, kid string) ed25519.PublicKey {
	t.Helper()
	for _, k := range set.Keys {
		if k.Kid == kid {
			x, err := base64.RawURLEncoding.DecodeString(k.X)
			if err != nil || len(x) != ed25519.PublicKeySize {
				t.Fatalf("JWK %s: x %q is not a base64url Ed25519 key", kid, k.X)
			}
			return x
		}
	}
	t.Fatalf("kid %s not in JWKS %+v", kid, set)
	return nil
}

func kids(set api.JWKS) []string {
	var out []string
	for _, k := range set.Keys {
		out = append(out, k.Kid)
	}
	return out
}

// mapKeys is a fixed KeySource.
type mapKeys map[string]ed25519.PublicKey
