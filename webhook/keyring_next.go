package webhook

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
)

// NextKey is a fresh signing key that is not yet in a ring. A service that
// keeps its ring saves it with the key first (MarshalRotated), then makes the
// key sign (RotateTo): a key that signed a delivery or was published is never
// one a crash could lose.
type NextKey struct{ k *ringKey }

// NewNextKey generates a key for RotateTo.
func NewNextKey() (*NextKey, error) {
	k, err := newRingKey()
	if err != nil {
		return nil, err
	}
	return &NextKey{k: k}, nil
}

// ID is the key id the key will sign with.
func (n *NextKey) ID() string { return n.k.kid }

// MarshalRotated returns what Marshal would return once RotateTo(next) has
// run: next active, the active key retiring. The ring itself is unchanged.
func (r *KeyRing) MarshalRotated(next *NextKey) ([]byte, error) {
	r.mu.Lock()
	p := persistedRing{Version: 1, Active: next.k.kid}
	for _, k := range r.keys {
		retiring := k.retiring
		if k.kid == r.active {
			if k.inFlight == 0 {
				continue // RotateTo drops it at once
			}
			retiring = true
		}
		p.Keys = append(p.Keys, persistedKey{Kid: k.kid, Seed: base64.RawURLEncoding.EncodeToString(k.priv.Seed()), Retiring: retiring})
	}
	r.mu.Unlock()
	p.Keys = append(p.Keys, persistedKey{Kid: next.k.kid, Seed: base64.RawURLEncoding.EncodeToString(next.k.priv.Seed())})
	return json.Marshal(p)
}

// RotateTo makes next the active key. The previous active key stays
// published until the deliveries signed with it complete, then is dropped.
func (r *KeyRing) RotateTo(next *NextKey) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.find(next.k.kid) != nil {
		return fmt.Errorf("rotate webhook key: key %s is already in the ring", next.k.kid)
	}
	old := r.find(r.active)
	r.keys = append(r.keys, next.k)
	r.active = next.k.kid
	if old != nil {
		r.retireLocked(old)
	}
	return nil
}
