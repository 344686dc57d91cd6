package keys

import (
	"crypto/ed25519"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"math/big"
	"slices"
	"strings"
	"testing"

	"filippo.io/edwards25519"
)

// ed25519Stamp is an X-Stamp value carrying pub and sig as they are.
func ed25519Stamp(t *testing.T, pub, sig []byte) string {
	t.Helper()
	j, err := json.Marshal(map[string]string{"publicKey": hex.EncodeToString(pub), "scheme": SchemeEd25519, "signature": hex.EncodeToString(sig)})
	if err != nil {
		t.Fatal(err)
	}
	return base64.RawURLEncoding.EncodeToString(j)
}

// nonCanonical returns the encoding of y+p with enc's sign bit, a second
// string for enc's point, or false when y+p does not fit in 255 bits.
func nonCanonical(enc []byte) ([]byte, bool) {
	le := slices.Clone(enc)
	sign := le[31] & 0x80
	le[31] &^= 0x80
	slices.Reverse(le)
	p := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 255), big.NewInt(19))
	y := new(big.Int).Add(new(big.Int).SetBytes(le), p)
	if y.BitLen() > 255 {
		return nil, false
	}
	out := y.FillBytes(make([]byte, 32))
	slices.Reverse(out)
	out[31] |= sign
	return out, true
}

// An Ed25519 key that is a small-order point lets anyone stamp as its user
// (under the identity, R = identity and S = 0 signs every body), and a
// non-canonical encoding is a second string for one key: both are refused at
// registration and in a stamp, while a real key still works.
func TestEd25519SmallOrderAndNonCanonicalKeysRefused(t *testing.T) {
	body := []byte(`{"type":"ACTIVITY_TYPE_APPROVE_ACTIVITY","organizationId":"org"}`)
	identity, _ := hex.DecodeString("01" + strings.Repeat("00", 31))
	// (0, -1), of order 2: y = p-1.
	order2, _ := hex.DecodeString("ec" + strings.Repeat("ff", 30) + "7f")
	// A point of large order whose y is small enough that y+p still fits.
	var large []byte
	for y := byte(2); y < 19 && large == nil; y++ {
		enc := make([]byte, 32)
		enc[0] = y
		if pt, err := new(edwards25519.Point).SetBytes(enc); err == nil && new(edwards25519.Point).MultByCofactor(pt).Equal(edwards25519.NewIdentityPoint()) == 0 {
			large = enc
		}
	}
	if large == nil {
		t.Fatal("no point of large order with y below 19")
	}
	largeTwin, ok := nonCanonical(large)
	if !ok {
		t.Fatal("y+p does not fit")
	}
	identityTwin, _ := nonCanonical(identity)
	forged := append(slices.Clone(identity), make([]byte, 32)...) // R = identity, S = 0
	if !ed25519.Verify(identity, body, forged) {
		t.Fatal("premise: the standard library verifies the forged signature under the identity key")
	}
	for _, c := range []struct {
		name string
		pub  []byte
	}{
		{"identity", identity},
		{"order 2", order2},
		{"identity as y+p", identityTwin},
		{"large-order point as y+p", largeTwin},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got, err := CanonicalPublicKey(CredentialAPIKeyEd25519, hex.EncodeToString(c.pub)); !errors.Is(err, ErrBadPublicKey) {
				t.Errorf("CanonicalPublicKey(%x) = %q, %v; want ErrBadPublicKey", c.pub, got, err)
			}
			if st, err := Verify(ed25519Stamp(t, c.pub, forged), body); !errors.Is(err, ErrBadPublicKey) {
				t.Errorf("a stamp with key %x is %+v, %v; want ErrBadPublicKey", c.pub, st, err)
			}
		})
	}
	if _, err := CanonicalPublicKey(CredentialAPIKeyEd25519, hex.EncodeToString(large)); err != nil {
		t.Errorf("the canonical encoding of a large-order point is refused: %v", err)
	}
	k, err := Generate(SchemeEd25519)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := CanonicalPublicKey(CredentialAPIKeyEd25519, k.PublicKeyHex()); err != nil || got != k.PublicKeyHex() {
		t.Errorf("a generated key %s reads as %q, %v", k.PublicKeyHex(), got, err)
	}
	_, value, err := k.Stamp(body)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Verify(value, body); err != nil {
		t.Errorf("a generated key's stamp is refused: %v", err)
	}
}
