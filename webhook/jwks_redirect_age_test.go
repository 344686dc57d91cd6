package webhook

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// A JWKS reply that a shared cache (a CDN in front of the service) has
// already held for most of its max-age says so with Age (RFC 9111 §4.2.3).
// The cache must count it: otherwise a key the service stopped publishing a
// day ago is still accepted for up to another day.
func TestJWKSCacheSubtractsAgeFromMaxAge(t *testing.T) {
	old, _ := NewKeyRing()
	oldSet := old.JWKS()
	kid := old.ActiveKeyID()
	rotated, _ := NewKeyRing() // the set the service publishes once the old key is gone
	newSet := rotated.JWKS()
	removed := false
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if removed {
			w.Header().Set("Cache-Control", api.JWKSCacheControl)
			json.NewEncoder(w).Encode(newSet)
			return
		}
		// Served by a cache that fetched it 86,000 s ago: 400 s of freshness left.
		w.Header().Set("Cache-Control", api.JWKSCacheControl)
		w.Header().Set("Age", "86000")
		json.NewEncoder(w).Encode(oldSet)
	}))
	defer srv.Close()
	clk := newFakeClock()
	c := NewJWKSCache(srv.URL, srv.Client(), clk.Now)
	if _, err := c.Key(context.Background(), kid); err != nil {
		t.Fatal(err)
	}
	removed = true
	clk.Advance(2 * time.Hour) // far past the 400 s of freshness the reply had left
	if _, err := c.Key(context.Background(), kid); !errors.Is(err, ErrUnknownKey) {
		t.Errorf("2h after a reply that had 400 s of freshness left, the removed key %s is still used (err %v)", kid, err)
	}
}

// A redirect from the configured (https) JWKS URL to plain http on another
// host must not hand the trust root over: a delivery signed by that host's
// key is refused, and the error names where the redirect pointed.
func TestJWKSCacheRefusesRedirectToAnotherHostOverHTTP(t *testing.T) {
	evil, _ := NewKeyRing()
	evilSrv := httptest.NewServer(JWKSHandler(evil)) // plain http, another host:port
	defer evilSrv.Close()
	good := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, evilSrv.URL+api.JWKSPath, http.StatusFound)
	}))
	defer good.Close()
	c := NewJWKSCache(good.URL+api.JWKSPath, good.Client(), nil) // good.Client(): DefaultClient's redirect policy, trusting the test cert
	body := []byte(`{"organizationId":"org-1","id":"a"}`)
	h, err := evil.Sign("org-1", "ev-1", time.Now(), body)
	if err != nil {
		t.Fatal(err)
	}
	d, err := VerifyForOrganization(context.Background(), "org-1", h, body, c, time.Now(), 0)
	if err == nil {
		t.Fatalf("a delivery signed by the key of the host a redirect named (over plain http) verified: %+v", d)
	}
	if !errors.Is(err, ErrJWKSUnavailable) || !strings.Contains(err.Error(), evilSrv.URL) {
		t.Errorf("refused, but the error does not say the key set is unavailable because of a redirect to %s: %v", evilSrv.URL, err)
	}
}
