package keys

import (
	"encoding/hex"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
)

// Verifier verifies stamps like Verify, remembering the public keys it has
// parsed: decompressing a P-256 or secp256k1 point is a sizeable part of a
// verification, and a service sees the same few keys over and over. For the
// P-256 keys it sees most, it also keeps a table of multiples that makes
// each verification about twice as fast (p256table.go); only signatures
// the caller admitted (ParsedStamp.Admitted) earn one. What it remembers is
// a pure function of the key's bytes (no trust decision), so it never needs
// invalidating. It is safe for concurrent use.
type Verifier struct {
	mu       sync.RWMutex
	max      int
	p256Keys map[string]*p256Key
	k1Keys   map[string]*secp256k1.PublicKey
	// tables counts the P-256 tables built since p256Keys was last
	// emptied; at most maxTables (each ~400 KiB) exist at once.
	tables atomic.Int64
}

// maxTables bounds the memory P-256 tables take: 16 of them, ~6.3 MiB. A
// service has few keys that sign most of its requests; the others are
// verified the standard way.
const maxTables = 16

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

func (v *Verifier) p256(raw []byte) (*p256Key, error) {
	if v == nil {
		pub, err := parseP256Public(raw, false)
		if err != nil {
			return nil, err
		}
		return &p256Key{pub: pub}, nil
	}
	v.mu.RLock()
	k := v.p256Keys[string(raw)]
	v.mu.RUnlock()
	if k != nil {
		return k, nil
	}
	pub, err := parseP256Public(raw, false)
	if err != nil {
		return nil, err
	}
	k = &p256Key{pub: pub, raw: string(raw)}
	v.mu.Lock()
	if v.p256Keys == nil || len(v.p256Keys) >= v.max {
		v.p256Keys = map[string]*p256Key{}
		v.tables.Store(0)
	}
	v.p256Keys[string(raw)] = k
	v.mu.Unlock()
	return k, nil
}

// useP256 counts a signature that k verified and its caller admitted, and
// builds k's table on the one that reaches tableAfterUses, if fewer than
// maxTables exist. Only admitted signatures count, so neither a forger's key
// nor a stranger's (one the service does not know) ever gets a table: else
// anyone could take every table with 16 throwaway keys. A key held from
// before the map was last emptied counts nothing, so it cannot take a table
// of the new count that no lookup would find. Exactly one caller sees the
// count reach tableAfterUses, so a table is built once; callers that come
// meanwhile verify the standard way.
func (v *Verifier) useP256(k *p256Key) {
	v.mu.RLock()
	current := v.p256Keys[k.raw] == k
	if !current || k.uses.Add(1) != tableAfterUses {
		v.mu.RUnlock()
		return
	}
	// Under the read lock: emptying the map (which resets the count) waits.
	if v.tables.Add(1) > maxTables {
		v.tables.Add(-1)
		v.mu.RUnlock()
		return
	}
	v.mu.RUnlock()
	q, err := p256Point(k.pub)
	if err != nil {
		return // cannot happen for a parsed key; the standard way still works
	}
	k.table.Store(newP256Table(q))
}

// HasTable reports whether stamps by the P-256 public key (hex, compressed
// or not) are verified with a table of its multiples: for diagnostics.
func (v *Verifier) HasTable(publicKey string) bool {
	raw, err := hex.DecodeString(publicKey)
	if err != nil {
		return false
	}
	v.mu.RLock()
	k := v.p256Keys[string(raw)]
	v.mu.RUnlock()
	return k != nil && k.table.Load() != nil
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
