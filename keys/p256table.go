package keys

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"encoding/binary"
	"math/big"
	"sync/atomic"

	"filippo.io/nistec"
)

// A service verifies stamps from the same few keys over and over. An ECDSA
// verification computes u1·G + u2·Q: the standard library has a precomputed
// table for the generator G but must multiply the key Q from scratch each
// time, which is most of a verification's cost. For a key it has seen often
// enough, a Verifier keeps a table of multiples of Q too, so that u2·Q costs
// 26 point additions instead of 256 doublings and 52 additions.
//
// Only public values are involved (the key, the signature, the digest), so the
// table need not be constant-time; the group arithmetic itself is
// filippo.io/nistec, the standard library's own P-256 code, exported.

// p256Order is the order n of the P-256 group.
var p256Order = elliptic.P256().Params().N

// tableWindow is the width in bits of a table's digits: a 256-bit scalar is
// ceil(256/tableWindow) signed digits, each one point addition.
const tableWindow = 10

const (
	tableRows  = (256 + tableWindow - 1) / tableWindow
	tableWidth = 1 << (tableWindow - 1)
)

// p256Table holds row i = d·2^(w·i)·Q for d = 1..2^(w−1), w = tableWindow:
// with signed digits (−2^(w−1)+1..2^(w−1)), a 256-bit scalar is at most
// tableRows additions of a row entry or its negation. The top row's digit is
// small (256 is not a multiple of w), so its carry needs no row of its own.
type p256Table [tableRows][tableWidth]nistec.P256Point

// The top row's largest digit, plus a carry, must fit in a row: this fails
// to compile for a tableWindow that divides 256 (which needs one more row).
var _ [tableWidth - 1<<(256-(tableRows-1)*tableWindow)]struct{}

func newP256Table(q *nistec.P256Point) *p256Table {
	t := new(p256Table)
	base := nistec.NewP256Point().Set(q)
	for i := range t {
		t[i][0].Set(base)
		for d := 1; d < len(t[i]); d++ {
			t[i][d].Add(&t[i][d-1], base)
		}
		base.Double(&t[i][len(t[i])-1]) // 2^w·base = 2·(2^(w−1)·base)
	}
	return t
}

// mult returns k·Q for the 32-byte big-endian scalar k.
func (t *p256Table) mult(k *[32]byte) *nistec.P256Point {
	var limbs [5]uint64 // little-endian, with a zero limb past the top
	for i := range 4 {
		limbs[i] = binary.BigEndian.Uint64(k[24-8*i:])
	}
	acc := nistec.NewP256Point() // the point at infinity
	var neg nistec.P256Point
	carry := 0
	for i := range t {
		bit := i * tableWindow
		word, shift := bit/64, uint(bit%64)
		v := limbs[word] >> shift
		if shift+tableWindow > 64 {
			v |= limbs[word+1] << (64 - shift)
		}
		digit := carry + int(v&(1<<tableWindow-1))
		carry = 0
		if digit > tableWidth {
			digit -= 1 << tableWindow
			carry = 1
		}
		switch {
		case digit > 0:
			acc.Add(acc, &t[i][digit-1])
		case digit < 0:
			acc.Add(acc, neg.Negate(&t[i][-digit-1]))
		}
	}
	return acc
}

// p256Key is a parsed P-256 stamp key as a Verifier keeps it: the table is
// built once the key has made tableAfterUses signatures that verified, so that
// a key seen once (a one-off) or only with bad signatures costs no table.
type p256Key struct {
	pub  *ecdsa.PublicKey
	raw  string       // the key's bytes as the Verifier's map holds it
	uses atomic.Int64 // admitted signatures
	// lastUse is when it last signed an admitted request (UnixNano of the
	// Verifier's clock): an idle key's table may go to another.
	lastUse atomic.Int64
	table   atomic.Pointer[p256Table]
}

// tableAfterUses is how many verifications with a key a Verifier does the
// standard way before it builds the key's table (~7 ms of CPU, about 100
// verifications' worth, repaid after ~250 more: the keys that sign most of a
// service's requests sign that many within minutes).
const tableAfterUses = 16

// verifyP256 checks an ECDSA P-256 signature (r, s), both already known to
// be positive, over digest, as SEC 1 §4.1.4 and crypto/ecdsa do.
func verifyP256(t *p256Table, digest *[32]byte, r, s *big.Int) bool {
	n := p256Order
	if r.Cmp(n) >= 0 || s.Cmp(n) >= 0 {
		return false
	}
	w := new(big.Int).ModInverse(s, n)
	if w == nil {
		return false
	}
	u1 := new(big.Int).SetBytes(digest[:]) // SHA-256 fills P-256's 256 bits exactly
	u1.Mul(u1, w).Mod(u1, n)
	u2 := w.Mul(r, w).Mod(w, n)
	var b1, b2 [32]byte
	u1.FillBytes(b1[:])
	u2.FillBytes(b2[:])
	p, err := nistec.NewP256Point().ScalarBaseMult(b1[:])
	if err != nil {
		return false
	}
	p.Add(p, t.mult(&b2))
	x, err := p.BytesX() // fails for the point at infinity
	if err != nil {
		return false
	}
	v := new(big.Int).SetBytes(x)
	if v.Cmp(n) >= 0 {
		v.Sub(v, n) // x < p < 2n
	}
	return v.Cmp(r) == 0
}

// p256Point converts a parsed key for nistec.
func p256Point(pub *ecdsa.PublicKey) (*nistec.P256Point, error) {
	b, err := pub.Bytes()
	if err != nil {
		return nil, err
	}
	return nistec.NewP256Point().SetBytes(b)
}
