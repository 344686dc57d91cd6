package webhook

import (
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// identityKey is the Ed25519 identity point, of small order: under it the
// signature R = identity, S = 0 verifies for every message.
func identityKey() ed25519.PublicKey {
	k := make(ed25519.PublicKey, ed25519.PublicKeySize)
	k[0] = 1
	return k
}

// forged is a delivery signed by no one: its signature verifies for any body
// under identityKey.
func forged(t *testing.T, now time.Time) (kid string, h map[string][]string) {
	t.Helper()
	ring, hdr := signedDelivery(t, now.Add(-time.Second))
	sig := make([]byte, ed25519.SignatureSize)
	sig[0] = 1
	if !ed25519.Verify(identityKey(), []byte("any body"), sig) {
		t.Fatal("the forged signature should verify under the identity key with crypto/ed25519")
	}
	hdr.Set(HeaderSignature, hex.EncodeToString(sig))
	return ring.ActiveKeyID(), hdr
}

// A key source that gives a small-order key (a pinned key typed wrong, or a
// JWKS answer from someone in the way) would let anyone forge a delivery:
// Verify refuses the key rather than accept the forgery.
func TestVerifyRefusesSmallOrderKey(t *testing.T) {
	now := time.Now()
	kid, h := forged(t, now)
	d, err := Verify(h, testBody, mapKeys{kid: identityKey()}, now, 0)
	if err == nil {
		t.Fatalf("a delivery signed by no one verified under a small-order key: %+v", d)
	}
}

// A published JWKS entry holding a small-order key is left out, as any
// other unusable entry: the delivery signed under its kid is not verified.
func TestJWKSCacheIgnoresSmallOrderKey(t *testing.T) {
	ring, _ := NewKeyRing()
	good := ring.JWKS().Keys[0]
	weak := good
	weak.Kid = "weak"
	weak.X = base64.RawURLEncoding.EncodeToString(identityKey())
	set := api.JWKS{Keys: []api.JWK{weak, good}}
	srv := newJWKSEndpoint(t, func() any { return set })
	cache := NewJWKSCache(srv.URL(), srv.Client(), newFakeClock().Now)
	if _, err := cache.Key(context.Background(), good.Kid); err != nil {
		t.Fatalf("the good entry: %v", err)
	}
	if _, err := cache.Key(context.Background(), weak.Kid); !errors.Is(err, ErrUnknownKey) {
		t.Errorf("a small-order key is served for %q: %v, want ErrUnknownKey", weak.Kid, err)
	}
}
