package keys

import (
	"encoding/hex"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
)

// Verifier verifies stamps like Verify, remembering the public keys of
// stamps its caller admitted (ParsedStamp.Admitted): decompressing a P-256 or
// secp256k1 point is a sizeable part of a verification, and a service sees
// the same few keys over and over. For the P-256 keys that sign most, it
// also keeps a table of multiples that makes each verification about twice
// as fast (p256table.go). Only admitted signatures count, so keys the
// service does not know (strangers, forgers) can neither fill the map nor
// take a table; and a table whose key has gone quiet (expired, deleted, or
// just idle) is given to the next frequent key. What it remembers is a pure
// function of the key's bytes (no trust decision), so it never needs
// invalidating. It is safe for concurrent use.
type Verifier struct {
	mu       sync.RWMutex
	max      int
	now      func() time.Time
	p256Keys map[string]*p256Key
	k1Keys   map[string]*secp256k1.PublicKey
	// holders are the P-256 keys with a table (or one being built), at most
	// maxTables; each ~1.25 MiB.
	holders []*p256Key
}

// maxTables bounds the memory P-256 tables take: 16 of them, ~20 MiB. A
// service has few keys that sign most of its requests; the others are
// verified the standard way.
const maxTables = 16

// tableIdle is how long a table's key must have signed nothing admitted
// before another key may take its table: long enough that the keys signing
// right now keep theirs (no rebuilding back and forth), short enough that
// an expired or deleted key's table is soon someone else's.
const tableIdle = time.Minute

// NewVerifier returns a Verifier that remembers up to maxKeys admitted keys
// per curve; when full it forgets all but those with a table. now is its
// clock for tableIdle (nil: time.Now).
func NewVerifier(maxKeys int, now func() time.Time) *Verifier {
	if now == nil {
		now = time.Now
	}
	return &Verifier{max: max(1, maxKeys), now: now}
}

// Parse checks everything in an X-Stamp header but its signature, which
// ParsedStamp.Verify then checks over a body; errors are those of Verify.
func (v *Verifier) Parse(headerValue string) (ParsedStamp, error) {
	return parseStamp(headerValue, v)
}

// p256 is the remembered key of raw, or raw parsed afresh (remembered only
// once a signature of it is admitted).
func (v *Verifier) p256(raw []byte) (*p256Key, error) {
	if v != nil {
		v.mu.RLock()
		k := v.p256Keys[string(raw)]
		v.mu.RUnlock()
		if k != nil {
			return k, nil
		}
	}
	pub, err := parseP256Public(raw, false)
	if err != nil {
		return nil, err
	}
	return &p256Key{pub: pub, raw: string(raw)}, nil
}

// admitP256 counts a signature that k verified and its caller admitted:
// the key is remembered, and it gets a table on every tableAfterUses-th such
// signature while it has none, if fewer than maxTables exist or one has been
// idle for tableIdle. k may be a copy parsed before another request
// remembered the key: the remembered one counts.
func (v *Verifier) admitP256(k *p256Key) {
	now := v.now().UnixNano()
	v.mu.RLock()
	cur := v.p256Keys[k.raw]
	v.mu.RUnlock()
	if cur == nil {
		v.mu.Lock()
		if cur = v.p256Keys[k.raw]; cur == nil {
			if len(v.p256Keys) >= v.max {
				v.forgetKeysWithoutTables()
			}
			if v.p256Keys == nil {
				v.p256Keys = map[string]*p256Key{}
			}
			v.p256Keys[k.raw], cur = k, k
		}
		v.mu.Unlock()
	}
	cur.lastUse.Store(now)
	if cur.uses.Add(1)%tableAfterUses != 0 || cur.table.Load() != nil || !v.takeTableSlot(cur, now) {
		return
	}
	q, err := p256Point(cur.pub)
	if err != nil {
		return // cannot happen for a parsed key; the standard way still works
	}
	t := newP256Table(q) // ~7 ms: outside the lock
	v.mu.Lock()
	if slices.Contains(v.holders, cur) { // not given away meanwhile
		cur.table.Store(t)
	}
	v.mu.Unlock()
}

// takeTableSlot makes k a table holder, taking the slot of the holder idle
// longest if all are taken and it has been idle for tableIdle.
func (v *Verifier) takeTableSlot(k *p256Key, now int64) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.p256Keys[k.raw] != k || slices.Contains(v.holders, k) {
		return false // forgotten meanwhile, or another caller is building it
	}
	if len(v.holders) < maxTables {
		v.holders = append(v.holders, k)
		return true
	}
	idlest := 0
	for i, h := range v.holders {
		if h.lastUse.Load() < v.holders[idlest].lastUse.Load() {
			idlest = i
		}
	}
	if now-v.holders[idlest].lastUse.Load() < int64(tableIdle) {
		return false
	}
	v.holders[idlest].table.Store(nil)
	v.holders[idlest] = k
	return true
}

// forgetKeysWithoutTables empties the P-256 map but for the table holders;
// v.mu is held for writing.
func (v *Verifier) forgetKeysWithoutTables() {
	kept := make(map[string]*p256Key, len(v.holders))
	for _, h := range v.holders {
		kept[h.raw] = h
	}
	v.p256Keys = kept
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

// secp256k1 is the remembered key of raw, or raw parsed afresh.
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
	return pub, nil
}

// admitSecp256k1 remembers an admitted secp256k1 key.
func (v *Verifier) admitSecp256k1(raw string, pub *secp256k1.PublicKey) {
	v.mu.RLock()
	known := v.k1Keys[raw] != nil
	v.mu.RUnlock()
	if known {
		return
	}
	v.mu.Lock()
	if v.k1Keys == nil || len(v.k1Keys) >= v.max {
		v.k1Keys = map[string]*secp256k1.PublicKey{}
	}
	v.k1Keys[raw] = pub
	v.mu.Unlock()
}
