package webhook

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/vigil-console/vigil/api"
)

// maxRingKeys bounds how many keys in use (not retiring) a persisted ring
// may hold.
const maxRingKeys = 64

// KeyRing holds the service's webhook signing keys: one active key that signs
// new deliveries, and retiring keys that stay published in the JWKS while
// deliveries signed with them are still in flight. A retiring key is dropped
// as soon as its last in-flight delivery completes.
//
// A KeyRing holds private keys; its Marshal output is secret. It is safe for
// concurrent use.
type KeyRing struct {
	mu     sync.Mutex
	active string
	keys   []*ringKey // publication order, oldest first
}

type ringKey struct {
	kid      string
	priv     ed25519.PrivateKey
	retiring bool
	inFlight int // deliveries signed with this key and not yet completed
}

// NewKeyRing returns a ring with one fresh active key.
func NewKeyRing() (*KeyRing, error) {
	k, err := newRingKey()
	if err != nil {
		return nil, err
	}
	return &KeyRing{active: k.kid, keys: []*ringKey{k}}, nil
}

func newRingKey() (*ringKey, error) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("generate webhook signing key: %w", err)
	}
	return &ringKey{kid: keyID(priv.Public().(ed25519.PublicKey)), priv: priv}, nil
}

// keyID is the RFC 7638 JWK thumbprint of an Ed25519 public key: stable,
// derived from the key itself, and made only of base64url characters.
func keyID(pub ed25519.PublicKey) string {
	x := base64.RawURLEncoding.EncodeToString(pub)
	sum := sha256.Sum256([]byte(`{"crv":"Ed25519","kty":"OKP","x":"` + x + `"}`))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// ActiveKeyID returns the id of the key that signs new deliveries.
func (r *KeyRing) ActiveKeyID() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.active
}

// Rotate makes a fresh key active and returns its id. The previous active key
// stays published until the deliveries signed with it complete, then is
// dropped.
func (r *KeyRing) Rotate() (newKid string, err error) {
	next, err := NewNextKey()
	if err != nil {
		return "", fmt.Errorf("rotate webhook key: %w", err)
	}
	if err := r.RotateTo(next); err != nil {
		return "", err
	}
	return next.ID(), nil
}

// Retire stops publishing kid once the deliveries signed with it complete
// (at once if there are none). The active key cannot be retired: Rotate first.
func (r *KeyRing) Retire(kid string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if kid == r.active {
		return fmt.Errorf("retire webhook key %s: it is the active key; rotate to a new key first", quote(kid))
	}
	k := r.find(kid)
	if k == nil {
		return fmt.Errorf("retire webhook key %s: %w", quote(kid), ErrUnknownKey)
	}
	r.retireLocked(k)
	return nil
}

func (r *KeyRing) retireLocked(k *ringKey) {
	k.retiring = true
	if k.inFlight == 0 {
		r.keys = slices.DeleteFunc(r.keys, func(x *ringKey) bool { return x == k })
	}
}

func (r *KeyRing) find(kid string) *ringKey {
	for _, k := range r.keys {
		if k.kid == kid {
			return k
		}
	}
	return nil
}

// JWKS returns the published verification keys: the active key and every
// retiring key that still has deliveries in flight.
func (r *KeyRing) JWKS() api.JWKS {
	r.mu.Lock()
	defer r.mu.Unlock()
	set := api.JWKS{Keys: make([]api.JWK, 0, len(r.keys))}
	for _, k := range r.keys {
		set.Keys = append(set.Keys, PublicJWK(k.kid, k.priv.Public().(ed25519.PublicKey)))
	}
	return set
}

// PublicJWK is the JWKS entry of a verification key (SPEC.md, JWK entry).
func PublicJWK(kid string, pub ed25519.PublicKey) api.JWK {
	return api.JWK{
		Kid:                       kid,
		Kty:                       "OKP",
		Crv:                       "Ed25519",
		Alg:                       "EdDSA",
		Use:                       "sig",
		X:                         base64.RawURLEncoding.EncodeToString(pub),
		ServiceSignatureAlgorithm: Algorithm,
		ServiceSignatureVersion:   Version,
	}
}

// Key returns the public key of a published kid, so that a KeyRing is itself
// a KeySource (for the service's own checks and for tests).
func (r *KeyRing) Key(_ context.Context, kid string) (ed25519.PublicKey, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	k := r.find(kid)
	if k == nil {
		return nil, fmt.Errorf("key id %s: %w", quote(kid), ErrUnknownKey)
	}
	return k.priv.Public().(ed25519.PublicKey), nil
}

// HeldKey is Key without a context: a ring holds every key it publishes
// (HeldKeySource).
func (r *KeyRing) HeldKey(kid string) (ed25519.PublicKey, bool) {
	pub, err := r.Key(context.Background(), kid)
	return pub, err == nil
}

// Sign returns every delivery header for body, signed with the active key at
// time ts. eventID must stay the same across retries of one event.
func (r *KeyRing) Sign(orgID, eventID string, ts time.Time, body []byte) (http.Header, error) {
	r.mu.Lock()
	kid, priv := r.active, r.find(r.active).priv
	r.mu.Unlock()
	return signWith(kid, priv, orgID, eventID, ts, body)
}

// signHeld is Sign for a delivery attempt: the signing key stays published
// until release is called (when the attempt has completed).
func (r *KeyRing) signHeld(orgID, eventID string, ts time.Time, body []byte) (h http.Header, release func(), err error) {
	r.mu.Lock()
	k := r.find(r.active)
	k.inFlight++
	r.mu.Unlock()

	var once sync.Once
	release = func() {
		once.Do(func() {
			r.mu.Lock()
			defer r.mu.Unlock()
			k.inFlight--
			if k.retiring && k.inFlight == 0 {
				r.retireLocked(k)
			}
		})
	}
	h, err = signWith(k.kid, k.priv, orgID, eventID, ts, body)
	if err != nil {
		release()
		return nil, nil, err
	}
	return h, release, nil
}

// persistedRing is the Marshal format. Seeds are the 32-byte Ed25519 seeds.
type persistedRing struct {
	Version int            `json:"version"`
	Active  string         `json:"active"`
	Keys    []persistedKey `json:"keys"`
}

type persistedKey struct {
	Kid      string `json:"kid"`
	Seed     string `json:"seed"` // base64url, no padding
	Retiring bool   `json:"retiring,omitempty"`
}

// Marshal returns the ring's keys, private material included, for the service
// to keep in its store. Treat the result as a secret.
func (r *KeyRing) Marshal() ([]byte, error) {
	r.mu.Lock()
	p := persistedRing{Version: 1, Active: r.active}
	for _, k := range r.keys {
		p.Keys = append(p.Keys, persistedKey{
			Kid:      k.kid,
			Seed:     base64.RawURLEncoding.EncodeToString(k.priv.Seed()),
			Retiring: k.retiring,
		})
	}
	r.mu.Unlock()
	return json.Marshal(p)
}

// LoadKeyRing restores a ring saved by Marshal. Keys that were retiring are
// dropped: a freshly loaded ring has no deliveries in flight.
func LoadKeyRing(data []byte) (*KeyRing, error) {
	var p persistedRing
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, fmt.Errorf("load webhook key ring: not the JSON written by KeyRing.Marshal: %w", err)
	}
	if p.Version != 1 {
		return nil, fmt.Errorf("load webhook key ring: version %d is not supported (want 1)", p.Version)
	}
	// Only the keys kept count against maxRingKeys: a ring saved while many
	// rotated-out keys still had attempts on the wire must load (else the
	// service does not start), and those keys are dropped here.
	kept := 0
	for _, pk := range p.Keys {
		if !pk.Retiring {
			kept++
		}
	}
	if kept == 0 || kept > maxRingKeys {
		return nil, fmt.Errorf("load webhook key ring: %d keys in use, want 1..%d", kept, maxRingKeys)
	}
	r := &KeyRing{active: p.Active}
	for i, pk := range p.Keys {
		seed, err := base64.RawURLEncoding.DecodeString(pk.Seed)
		if err != nil || len(seed) != ed25519.SeedSize {
			return nil, fmt.Errorf("load webhook key ring: key %d: seed is not %d bytes of unpadded base64url", i, ed25519.SeedSize)
		}
		priv := ed25519.NewKeyFromSeed(seed)
		kid := keyID(priv.Public().(ed25519.PublicKey))
		if kid != pk.Kid {
			return nil, fmt.Errorf("load webhook key ring: key %d: kid %s does not match its key (want %s); the stored ring is corrupt", i, quote(pk.Kid), kid)
		}
		if r.find(kid) != nil {
			return nil, fmt.Errorf("load webhook key ring: key %s appears twice", kid)
		}
		if pk.Retiring {
			if kid == p.Active {
				return nil, errors.New("load webhook key ring: the active key is marked retiring; the stored ring is corrupt")
			}
			continue
		}
		r.keys = append(r.keys, &ringKey{kid: kid, priv: priv})
	}
	if r.find(p.Active) == nil {
		return nil, fmt.Errorf("load webhook key ring: active key %s is not among the keys; the stored ring is corrupt", quote(p.Active))
	}
	return r, nil
}

// JWKSHandler serves ring's published keys the way the service does at
// api.JWKSPath: GET (or HEAD), no authentication, JSON, with the Cache-Control
// of SPEC.md's Limits.
func JWKSHandler(ring *KeyRing) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "use GET to fetch the webhook verification keys", http.StatusMethodNotAllowed)
			return
		}
		body, err := json.Marshal(ring.JWKS())
		if err != nil {
			http.Error(w, "internal error", http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", api.JWKSCacheControl)
		w.Write(body)
	})
}
