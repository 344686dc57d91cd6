package keys

import (
	"crypto/ecdsa"
	"fmt"
	"sync"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
)

// Verifier verifies stamps like Verify, remembering the public keys it has
// parsed: decompressing a P-256 or secp256k1 point is a sizeable part of a
// verification, and a service sees the same few keys over and over. What it
// remembers is a pure function of the key's bytes (no trust decision), so it
// never needs invalidating. It is safe for concurrent use.
type Verifier struct {
	mu       sync.RWMutex
	max      int
	p256Keys map[string]*ecdsa.PublicKey
	k1Keys   map[string]*secp256k1.PublicKey
}

// NewVerifier returns a Verifier that remembers up to maxKeys keys per curve;
// when full it forgets them all and starts again.
func NewVerifier(maxKeys int) *Verifier {
	return &Verifier{max: max(1, maxKeys)}
}

// Verify is Verify (same checks, same errors) with parsed keys remembered.
func (v *Verifier) Verify(headerValue string, body []byte) (Stamp, error) {
	return verify(headerValue, body, v)
}

// Parse checks everything in an X-Stamp header but its signature, which
// ParsedStamp.Verify then checks over a body; errors are those of Verify.
func (v *Verifier) Parse(headerValue string) (ParsedStamp, error) {
	return parseStamp(headerValue, v)
}

func (v *Verifier) p256(raw []byte) (*ecdsa.PublicKey, error) {
	if v == nil {
		return parseP256Public(raw, false)
	}
	v.mu.RLock()
	pub := v.p256Keys[string(raw)]
	v.mu.RUnlock()
	if pub != nil {
		return pub, nil
	}
	pub, err := parseP256Public(raw, false)
	if err != nil {
		return nil, err
	}
	v.mu.Lock()
	if v.p256Keys == nil || len(v.p256Keys) >= v.max {
		v.p256Keys = map[string]*ecdsa.PublicKey{}
	}
	v.p256Keys[string(raw)] = pub
	v.mu.Unlock()
	return pub, nil
}

func (v *Verifier) secp256k1(raw []byte) (*secp256k1.PublicKey, error) {
	if v != nil {
		v.mu.RLock()
		pub := v.k1Keys[string(raw)]
		v.mu.RUnlock()
		if pub != nil {
			return pub, nil
		}
	}
	pub, err := secp256k1.ParsePubKey(raw)
	if err != nil {
		return nil, fmt.Errorf("%w: not a point on secp256k1", ErrBadPublicKey)
	}
	if v != nil {
		v.mu.Lock()
		if v.k1Keys == nil || len(v.k1Keys) >= v.max {
			v.k1Keys = map[string]*secp256k1.PublicKey{}
		}
		v.k1Keys[string(raw)] = pub
		v.mu.Unlock()
	}
	return pub, nil
}
