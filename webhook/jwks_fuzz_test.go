package webhook

import (
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// FuzzJWKS serves arbitrary documents as the key set: the cache must never
// panic, and a key it verifies with must be one the document publishes under
// that kid, in full, with no other key under the same kid.
func FuzzJWKS(f *testing.F) {
	ring, err := NewKeyRing()
	if err != nil {
		f.Fatal(err)
	}
	published, _ := json.Marshal(ring.JWKS())
	f.Add(published)
	if _, err := ring.Rotate(); err != nil {
		f.Fatal(err)
	}
	rotated, _ := json.Marshal(ring.JWKS())
	f.Add(rotated)
	f.Add([]byte(strings.Replace(string(published), `"keys":[`, `"keys":[`+strings.TrimSuffix(strings.TrimPrefix(string(rotated), `{"keys":[`), `]}`)+",", 1)))
	f.Add([]byte(`{"keys":[{"kid":"k","kty":"OKP","crv":"Ed25519","alg":"EdDSA","use":"sig","x":"AAAA"}]}`))
	f.Add([]byte(`{"keys":null}`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`{"keys":[{"kid":5}]}`))
	var doc atomic.Pointer[[]byte]
	srv := serveJWKS(f, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(*doc.Load())
	}))
	f.Fuzz(func(t *testing.T, data []byte) {
		doc.Store(&data)
		cache := NewJWKSCache(srv.URL(), srv.Client(), newFakeClock().Now)
		var set api.JWKS
		if json.Unmarshal(data, &set) != nil {
			if _, err := cache.Key(context.Background(), "k"); err == nil {
				t.Fatalf("a key from a document that is not JSON: %q", data)
			}
			return
		}
		if got := len(KeySkipReasons(set)); got != len(set.Keys) {
			t.Fatalf("%d skip reasons for %d keys", got, len(set.Keys))
		}
		for _, k := range set.Keys {
			pub, err := cache.Key(context.Background(), k.Kid)
			if err != nil {
				continue
			}
			for _, other := range set.Keys {
				if other.Kid != k.Kid {
					continue
				}
				x, derr := base64.RawURLEncoding.DecodeString(strings.TrimRight(other.X, "="))
				if derr == nil && len(x) == ed25519.PublicKeySize && !pub.Equal(ed25519.PublicKey(x)) && UsableKeyCount(api.JWKS{Keys: []api.JWK{other}}) == 1 {
					t.Fatalf("kid %q verifies with %x though the set also lists %x under it", k.Kid, pub, x)
				}
			}
			if k.Kty != "OKP" && !kidHasOKP(set, k.Kid) {
				t.Fatalf("kid %q verifies without an OKP key", k.Kid)
			}
		}
	})
}

func kidHasOKP(set api.JWKS, kid string) bool {
	for _, k := range set.Keys {
		if k.Kid == kid && k.Kty == "OKP" && k.Crv == "Ed25519" {
			return true
		}
	}
	return false
}
