package webhook

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestJWKSEntriesFollowSpec(t *testing.T) {
	ring, err := NewKeyRing()
	if err != nil {
		t.Fatal(err)
	}
	raw, err := json.Marshal(ring.JWKS())
	if err != nil {
		t.Fatal(err)
	}
	// Decode as generic JSON so the check does not go through api.JWK.
	var set struct {
		Keys []map[string]any `json:"keys"`
	}
	if err := json.Unmarshal(raw, &set); err != nil {
		t.Fatal(err)
	}
	if len(set.Keys) != 1 {
		t.Fatalf("JWKS has %d keys, want 1: %s", len(set.Keys), raw)
	}
	k := set.Keys[0]
	for field, want := range map[string]string{
		"kty": "OKP", "crv": "Ed25519", "alg": "EdDSA", "use": "sig",
		"service_signature_algorithm": "ed25519", "service_signature_version": "v1",
	} {
		if k[field] != want {
			t.Errorf("%s = %v, want %q", field, k[field], want)
		}
	}
	x, err := base64.RawURLEncoding.DecodeString(k["x"].(string))
	if err != nil || len(x) != 32 {
		t.Fatalf("x = %v: not 32 bytes of unpadded base64url", k["x"])
	}
	// kid is the RFC 7638 thumbprint: SHA-256 of the required members in
	// lexicographic order (encoding/json sorts map keys).
	canon, _ := json.Marshal(map[string]string{"kty": "OKP", "crv": "Ed25519", "x": k["x"].(string)})
	sum := sha256.Sum256(canon)
	if want := base64.RawURLEncoding.EncodeToString(sum[:]); k["kid"] != want {
		t.Errorf("kid = %v, want thumbprint %s", k["kid"], want)
	}
	if k["kid"] != ring.ActiveKeyID() {
		t.Errorf("published kid %v is not the active key %s", k["kid"], ring.ActiveKeyID())
	}
}

func TestKeyRingMarshalRoundTrip(t *testing.T) {
	ring, _ := NewKeyRing()
	data, err := ring.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	loaded, err := LoadKeyRing(data)
	if err != nil {
		t.Fatal(err)
	}
	if loaded.ActiveKeyID() != ring.ActiveKeyID() {
		t.Fatalf("active %s, want %s", loaded.ActiveKeyID(), ring.ActiveKeyID())
	}
	// The loaded ring signs with the same private key: the original public
	// key verifies its signature.
	now := time.Now()
	h, err := loaded.Sign(testOrg, "evt-1", now, testBody)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Verify(h, testBody, ring, now, 0); err != nil {
		t.Fatalf("signature of the loaded ring: %v", err)
	}
}

func TestLoadKeyRingDropsRetiringKeys(t *testing.T) {
	ring, _ := NewKeyRing()
	old := ring.ActiveKeyID()
	_, release, err := ring.signHeld(testOrg, "evt-1", time.Now(), testBody)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	newKid, _ := ring.Rotate()
	if got := kids(ring.JWKS()); len(got) != 2 {
		t.Fatalf("JWKS %v: old key should be published while in flight", got)
	}
	data, _ := ring.Marshal()
	loaded, err := LoadKeyRing(data)
	if err != nil {
		t.Fatal(err)
	}
	if got := kids(loaded.JWKS()); !slices.Equal(got, []string{newKid}) {
		t.Fatalf("loaded JWKS %v, want only %s (old %s had nothing in flight after a restart)", got, newKid, old)
	}
}

func TestLoadKeyRingRejectsCorruptData(t *testing.T) {
	ring, _ := NewKeyRing()
	good, _ := ring.Marshal()
	var p persistedRing
	json.Unmarshal(good, &p)
	edit := func(f func(p *persistedRing)) []byte {
		q := p
		q.Keys = slices.Clone(p.Keys)
		f(&q)
		b, _ := json.Marshal(q)
		return b
	}
	for name, data := range map[string][]byte{
		"not json":        []byte("{"),
		"empty":           nil,
		"wrong version":   edit(func(p *persistedRing) { p.Version = 2 }),
		"no keys":         edit(func(p *persistedRing) { p.Keys = nil }),
		"short seed":      edit(func(p *persistedRing) { p.Keys[0].Seed = p.Keys[0].Seed[:20] }),
		"kid mismatch":    edit(func(p *persistedRing) { p.Keys[0].Kid = "someone-else" }),
		"active missing":  edit(func(p *persistedRing) { p.Active = "gone" }),
		"active retiring": edit(func(p *persistedRing) { p.Keys[0].Retiring = true }),
		"duplicate key":   edit(func(p *persistedRing) { p.Keys = append(p.Keys, p.Keys[0]) }),
	} {
		if _, err := LoadKeyRing(data); err == nil {
			t.Errorf("%s: loaded", name)
		} else if !strings.HasPrefix(err.Error(), "load webhook key ring: ") {
			t.Errorf("%s: error %q lacks context", name, err)
		}
	}
}

func TestRotateAndRetire(t *testing.T) {
	ring, _ := NewKeyRing()
	first := ring.ActiveKeyID()
	second, err := ring.Rotate()
	if err != nil {
		t.Fatal(err)
	}
	if second == first || ring.ActiveKeyID() != second {
		t.Fatalf("after Rotate active = %s (first %s, returned %s)", ring.ActiveKeyID(), first, second)
	}
	// Nothing was in flight with the first key: it is gone at once.
	if got := kids(ring.JWKS()); !slices.Equal(got, []string{second}) {
		t.Fatalf("JWKS %v, want only %s", got, second)
	}
	now := time.Now()
	h, _ := ring.Sign(testOrg, "evt-1", now, testBody)
	if h.Get(HeaderKeyID) != second {
		t.Fatalf("signed with %s, want the new key %s", h.Get(HeaderKeyID), second)
	}
	if err := ring.Retire(second); err == nil {
		t.Fatal("retired the active key")
	}
	if err := ring.Retire(first); !errors.Is(err, ErrUnknownKey) {
		t.Fatalf("retire of a dropped key: %v, want ErrUnknownKey", err)
	}
}

func TestRetiringKeyStaysWhileHeld(t *testing.T) {
	ring, _ := NewKeyRing()
	old := ring.ActiveKeyID()
	h1, release1, _ := ring.signHeld(testOrg, "evt-1", time.Now(), testBody)
	_, release2, _ := ring.signHeld(testOrg, "evt-2", time.Now(), testBody)
	newKid, _ := ring.Rotate()

	if got := kids(ring.JWKS()); !slices.Equal(got, []string{old, newKid}) {
		t.Fatalf("JWKS %v, want old and new", got)
	}
	// The held delivery still verifies against the published keys.
	if _, err := Verify(h1, testBody, ring, time.Now(), 0); err != nil {
		t.Fatalf("in-flight delivery: %v", err)
	}
	release1()
	release1() // idempotent: must not release the other delivery's hold
	if got := kids(ring.JWKS()); !slices.Equal(got, []string{old, newKid}) {
		t.Fatalf("JWKS %v after one of two deliveries finished, want old and new", got)
	}
	release2()
	if got := kids(ring.JWKS()); !slices.Equal(got, []string{newKid}) {
		t.Fatalf("JWKS %v after both finished, want only %s", got, newKid)
	}
	if _, err := Verify(h1, testBody, ring, time.Now(), 0); !errors.Is(err, ErrUnknownKey) {
		t.Fatalf("after retirement: %v, want ErrUnknownKey", err)
	}
}

func TestKeyRingConcurrentUse(t *testing.T) {
	ring, _ := NewKeyRing()
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for range 50 {
				if i == 0 {
					ring.Rotate()
					continue
				}
				h, release, err := ring.signHeld(testOrg, "evt", time.Now(), testBody)
				if err != nil {
					t.Error(err)
					return
				}
				// While held, the signing key must be published.
				if _, err := Verify(h, testBody, ring, time.Now(), 0); err != nil {
					t.Errorf("held delivery: %v", err)
				}
				release()
				ring.JWKS()
			}
		})
	}
	wg.Wait()
	if got := kids(ring.JWKS()); !slices.Equal(got, []string{ring.ActiveKeyID()}) {
		t.Fatalf("after all deliveries, JWKS %v, want only the active key", got)
	}
}

func TestJWKSHandler(t *testing.T) {
	ring, _ := NewKeyRing()
	srv := httptest.NewServer(JWKSHandler(ring))
	defer srv.Close()
	resp, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	if cc := resp.Header.Get("Cache-Control"); cc != "public, max-age=86400, s-maxage=86400, stale-if-error=604800" {
		t.Errorf("Cache-Control %q", cc)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type %q", ct)
	}
	var set struct {
		Keys []struct {
			Kid string `json:"kid"`
		} `json:"keys"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&set); err != nil {
		t.Fatal(err)
	}
	if len(set.Keys) != 1 || set.Keys[0].Kid != ring.ActiveKeyID() {
		t.Fatalf("served %+v, want the active key %s", set, ring.ActiveKeyID())
	}
	post, err := http.Post(srv.URL, "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	post.Body.Close()
	if post.StatusCode != http.StatusMethodNotAllowed {
		t.Fatalf("POST: status %d, want 405", post.StatusCode)
	}
}
