package keys

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"math/big"
	"testing"
	"time"

	"filippo.io/nistec"
)

// tableKey is a P-256 key with its table, for the tests below.
type tableKey struct {
	priv  *ecdsa.PrivateKey
	point *nistec.P256Point
	table *p256Table
}

func newTableKey(t testing.TB) tableKey {
	t.Helper()
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	q, err := p256Point(&priv.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	return tableKey{priv: priv, point: q, table: newP256Table(q)}
}

func randomScalar(t testing.TB) *big.Int {
	t.Helper()
	k, err := rand.Int(rand.Reader, new(big.Int).Sub(p256Order, big.NewInt(1)))
	if err != nil {
		t.Fatal(err)
	}
	return k.Add(k, big.NewInt(1)) // 1..n-1
}

// everyDigit is the 256-bit scalar whose every tableWindow-bit digit is d
// (the top one cut to the bits that fit), big-endian.
func everyDigit(d uint64) [32]byte {
	x := new(big.Int)
	for i := 0; i < 256; i += tableWindow {
		x.Or(x, new(big.Int).Lsh(new(big.Int).SetUint64(d), uint(i)))
	}
	x.And(x, new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1)))
	var s [32]byte
	x.FillBytes(s[:])
	return s
}

// TestP256TableMultipliesLikeScalarMult checks the table against nistec's own
// scalar multiplication for random scalars and for those whose signed digits
// take every edge: zero, one, bytes of 0x80, 0x81 and 0xff, n−1, and every
// digit at the largest positive value, the first negative one and the top.
func TestP256TableMultipliesLikeScalarMult(t *testing.T) {
	k := newTableKey(t)
	var scalars [][32]byte
	for _, fill := range []byte{0x00, 0x01, 0x7f, 0x80, 0x81, 0xfe, 0xff} {
		var s [32]byte
		for i := range s {
			s[i] = fill
		}
		scalars = append(scalars, s)
	}
	var one, nMinus1, alternating [32]byte
	one[31] = 1
	new(big.Int).Sub(p256Order, big.NewInt(1)).FillBytes(nMinus1[:])
	for i := range alternating {
		alternating[i] = []byte{0x80, 0xff, 0x00, 0x81}[i%4]
	}
	scalars = append(scalars, one, nMinus1, alternating)
	// Every digit at the edges of its signed range, and just past them.
	for _, digit := range []uint64{tableWidth - 1, tableWidth, tableWidth + 1, 1<<tableWindow - 1} {
		scalars = append(scalars, everyDigit(digit))
	}
	for range 200 {
		var s [32]byte
		randomScalar(t).FillBytes(s[:])
		scalars = append(scalars, s)
	}
	for _, s := range scalars {
		want, err := nistec.NewP256Point().ScalarMult(k.point, s[:])
		if err != nil {
			t.Fatal(err)
		}
		if got := k.table.mult(&s); !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Fatalf("table·%x differs from ScalarMult", s)
		}
	}
}

// TestP256TableVerifyAgreesWithCryptoECDSA compares the table's verification
// with crypto/ecdsa's on valid signatures and on every kind of forgery a
// caller can send: another digest, r or s nudged, r and s swapped, s negated
// (high S: valid), values at and past the group order, another key's signature.
func TestP256TableVerifyAgreesWithCryptoECDSA(t *testing.T) {
	n := p256Order
	keys := []tableKey{newTableKey(t), newTableKey(t), newTableKey(t)}
	valid := 0
	for i := range 150 {
		k := keys[i%len(keys)]
		other := keys[(i+1)%len(keys)]
		var msg [16]byte
		rand.Read(msg[:])
		digest := sha256.Sum256(msg[:])
		r, s, err := ecdsa.Sign(rand.Reader, k.priv, digest[:])
		if err != nil {
			t.Fatal(err)
		}
		or, os, err := ecdsa.Sign(rand.Reader, other.priv, digest[:])
		if err != nil {
			t.Fatal(err)
		}
		flipped := digest
		flipped[i%32] ^= 1 << (i % 8)
		plus := func(x *big.Int, d int64) *big.Int { return new(big.Int).Add(x, big.NewInt(d)) }
		cases := []struct {
			name   string
			digest [32]byte
			r, s   *big.Int
		}{
			{"valid", digest, r, s},
			{"high S", digest, r, new(big.Int).Sub(n, s)},
			{"other digest", flipped, r, s},
			{"r+1", digest, plus(r, 1), s},
			{"s+1", digest, r, plus(s, 1)},
			{"swapped", digest, s, r},
			{"other key's signature", digest, or, os},
			{"r+n", digest, new(big.Int).Add(r, n), s},
			{"s+n", digest, r, new(big.Int).Add(s, n)},
			{"s=n", digest, r, new(big.Int).Set(n)},
			{"r=n-1", digest, plus(n, -1), s},
			{"s=1", digest, r, big.NewInt(1)},
		}
		for _, c := range cases {
			want := ecdsa.Verify(&k.priv.PublicKey, c.digest[:], c.r, c.s)
			if got := verifyP256(k.table, &c.digest, c.r, c.s); got != want {
				t.Fatalf("%s: table verification %v, crypto/ecdsa %v", c.name, got, want)
			}
			if want {
				valid++
			}
		}
	}
	if valid != 300 { // "valid" and "high S" of each round, nothing else
		t.Fatalf("%d signatures verified, want 300", valid)
	}
}

// TestP256TableRejectsSumAtInfinity builds the one signature whose u1·G +
// u2·Q is the point at infinity (digest = −r·d mod n for the key's secret d),
// which must be refused, not compared as x = 0.
func TestP256TableRejectsSumAtInfinity(t *testing.T) {
	k := newTableKey(t)
	r, s := randomScalar(t), randomScalar(t)
	d, err := k.priv.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	e := new(big.Int).Mul(r, new(big.Int).SetBytes(d))
	e.Neg(e).Mod(e, p256Order)
	var digest [32]byte
	e.FillBytes(digest[:])
	if ecdsa.Verify(&k.priv.PublicKey, digest[:], r, s) {
		t.Fatal("crypto/ecdsa accepts the sum at infinity")
	}
	if verifyP256(k.table, &digest, r, s) {
		t.Fatal("the table accepts a signature whose sum is the point at infinity")
	}
}

// TestVerifierBuildsTablesForFrequentKeysOnly: a key gets its table on its
// tableAfterUses-th admitted signature (bad signatures do not count, so a
// forger's key never gets one; nor do good ones the service did not admit,
// so a stranger's key never gets one), at most maxTables keys have one, and
// stamps verified with a table are judged exactly as before: valid ones
// pass, one over another body is refused.
func TestVerifierBuildsTablesForFrequentKeysOnly(t *testing.T) {
	v := NewVerifier(64, nil)
	body := []byte(`{"organizationId":"o"}`)
	newStamp := func() (stamp, pub string) {
		stamp = newP256Stamp(t, body)
		st, _ := DecodeStamp(stamp)
		return stamp, st.PublicKey
	}
	// verify verifies stamp over b, admitting it when it verifies if admit.
	verify := func(stamp string, b []byte, admit bool) error {
		p, err := v.Parse(stamp)
		if err != nil {
			return err
		}
		if _, err := p.Verify(b); err != nil {
			return err
		}
		if admit {
			p.Admitted()
		}
		return nil
	}
	// First, while every table is still to be had: a forger, whose
	// signatures never verify though the service would admit them, and
	// strangers, whose signatures verify but whom the service refuses.
	forger, err := Generate(SchemeP256)
	if err != nil {
		t.Fatal(err)
	}
	_, forged, err := forger.Stamp([]byte(`{"organizationId":"p"}`))
	if err != nil {
		t.Fatal(err)
	}
	forgedStamp, _ := DecodeStamp(forged)
	for range 2 * tableAfterUses {
		// Admitted even after the failed Verify, as a careless caller might.
		p, err := v.Parse(forged)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.Verify(body); !errors.Is(err, ErrBadSignature) {
			t.Fatalf("a stamp over another body: %v, want ErrBadSignature", err)
		}
		p.Admitted()
	}
	for range maxTables {
		stamp, pub := newStamp()
		for range 2 * tableAfterUses {
			if err := verify(stamp, body, false); err != nil {
				t.Fatal(err)
			}
		}
		if v.HasTable(pub) {
			t.Fatal("a key the service never admitted got a table")
		}
	}
	stamps := make([]string, maxTables+2)
	pubs := make([]string, len(stamps))
	for i := range stamps {
		stamps[i], pubs[i] = newStamp()
	}
	for use := 1; use <= tableAfterUses+1; use++ {
		for i, stamp := range stamps {
			if err := verify(stamp, body, true); err != nil {
				t.Fatalf("key %d, use %d: %v", i, use, err)
			}
			if err := verify(stamp, []byte(`{"organizationId":"p"}`), true); !errors.Is(err, ErrBadSignature) {
				t.Fatalf("key %d, use %d, other body: %v, want ErrBadSignature", i, use, err)
			}
		}
		if use < tableAfterUses && v.HasTable(pubs[0]) {
			t.Fatalf("a table after %d verified signatures", use)
		}
	}
	built := 0
	for i := range stamps {
		if v.HasTable(pubs[i]) {
			built++
		}
	}
	if v.HasTable(forgedStamp.PublicKey) {
		t.Fatal("a key whose signatures never verified got a table")
	}
	if built != maxTables {
		t.Fatalf("%d tables built for %d frequent keys, want %d", built, len(stamps), maxTables)
	}
}

// admitted verifies stamp over body with v, admitting it, n times.
func admitted(t *testing.T, v *Verifier, stamp string, body []byte, n int) {
	t.Helper()
	for range n {
		if _, err := verifyAdmitting(v, stamp, body); err != nil {
			t.Fatal(err)
		}
	}
}

// TestStrangersCannotEmptyTheVerifiersMap: keys whose stamps the caller never
// admits (a stranger's, even with valid signatures; a forger's) are not
// remembered, so however many there are, the keys the service knows keep
// their tables. Admitted keys beyond the map's size make it forget the keys
// without a table, never a table's.
func TestStrangersCannotEmptyTheVerifiersMap(t *testing.T) {
	v := NewVerifier(4, nil)
	body := []byte(`{"organizationId":"o"}`)
	member := newP256Stamp(t, body)
	st, _ := DecodeStamp(member)
	admitted(t, v, member, body, tableAfterUses)
	if !v.HasTable(st.PublicKey) {
		t.Fatal("the member's key has no table after its admitted signatures")
	}
	for range 20 {
		p, err := v.Parse(newP256Stamp(t, body))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.Verify(body); err != nil { // valid, never admitted
			t.Fatal(err)
		}
		if _, err := v.Parse(newP256Stamp(t, []byte("x"))); err != nil { // never verifies
			t.Fatal(err)
		}
	}
	if n := len(v.p256Keys); n != 1 || !v.HasTable(st.PublicKey) {
		t.Fatalf("after 40 strangers: %d keys remembered (want the member's alone), member's table %v", n, v.HasTable(st.PublicKey))
	}
	for range 10 { // other keys the service admits, more than the map holds
		admitted(t, v, newP256Stamp(t, body), body, 1)
	}
	if !v.HasTable(st.PublicKey) {
		t.Fatal("a full map of admitted keys took the member's table away")
	}
}

// TestVerifierGivesAnIdleKeysTableToAFrequentOne: once every table is taken,
// a key that signs often gets none while their keys keep signing; when one
// has been quiet for tableIdle (expired, deleted, or just idle), the frequent
// key takes that one, never a busy key's. No more than maxTables exist.
func TestVerifierGivesAnIdleKeysTableToAFrequentOne(t *testing.T) {
	now := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	v := NewVerifier(64, func() time.Time { return now })
	body := []byte(`{"organizationId":"o"}`)
	holders := make([]string, maxTables)
	for i := range holders {
		holders[i] = newP256Stamp(t, body)
		admitted(t, v, holders[i], body, tableAfterUses)
	}
	tables := func() (n int) {
		for _, k := range v.p256Keys {
			if k.table.Load() != nil {
				n++
			}
		}
		return n
	}
	if n := tables(); n != maxTables {
		t.Fatalf("%d tables for %d frequent keys, want %d", n, maxTables, maxTables)
	}
	late := newP256Stamp(t, body)
	lateKey, _ := DecodeStamp(late)
	now = now.Add(tableIdle / 2)
	admitted(t, v, late, body, 4*tableAfterUses)
	if v.HasTable(lateKey.PublicKey) {
		t.Fatal("a table was taken from a key that signed half a tableIdle ago")
	}
	now = now.Add(tableIdle)
	for _, h := range holders[1:] { // all but the first keep signing
		admitted(t, v, h, body, 1)
	}
	admitted(t, v, late, body, tableAfterUses)
	if !v.HasTable(lateKey.PublicKey) {
		t.Fatal("the frequent key got no table though one holder had been idle for longer than tableIdle")
	}
	first, _ := DecodeStamp(holders[0])
	if v.HasTable(first.PublicKey) {
		t.Error("the idle key kept its table: it should have gone to the frequent key")
	}
	for _, h := range holders[1:] {
		st, _ := DecodeStamp(h)
		if !v.HasTable(st.PublicKey) {
			t.Fatal("a busy key lost its table")
		}
	}
	if n := tables(); n != maxTables {
		t.Fatalf("%d tables, want %d", n, maxTables)
	}
	// The idle key, back at work, verifies as before, the standard way.
	admitted(t, v, holders[0], body, 1)
}

// FuzzP256TableVerify: whatever r, s and digest a caller sends, the table's
// verdict is crypto/ecdsa's.
func FuzzP256TableVerify(f *testing.F) {
	k := newTableKey(f)
	digest := sha256.Sum256([]byte("seed"))
	r, s, err := ecdsa.Sign(rand.Reader, k.priv, digest[:])
	if err != nil {
		f.Fatal(err)
	}
	f.Add(digest[:], r.Bytes(), s.Bytes())
	f.Add(digest[:], s.Bytes(), r.Bytes())
	f.Add(digest[:], r.Bytes(), new(big.Int).Sub(p256Order, s).Bytes())
	f.Add([]byte{}, []byte{1}, []byte{1})
	f.Fuzz(func(t *testing.T, d, rb, sb []byte) {
		var digest [32]byte
		copy(digest[:], d)
		r, s := new(big.Int).SetBytes(rb), new(big.Int).SetBytes(sb)
		if r.Sign() == 0 || s.Sign() == 0 {
			return // parseStrictDER refuses these before verification
		}
		if got, want := verifyP256(k.table, &digest, r, s), ecdsa.Verify(&k.priv.PublicKey, digest[:], r, s); got != want {
			t.Fatalf("table %v, crypto/ecdsa %v", got, want)
		}
	})
}

// newP256Stamp is an X-Stamp over body by a new P-256 key.
func newP256Stamp(t testing.TB, body []byte) string {
	t.Helper()
	k, err := Generate(SchemeP256)
	if err != nil {
		t.Fatal(err)
	}
	_, stamp, err := k.Stamp(body)
	if err != nil {
		t.Fatal(err)
	}
	return stamp
}
