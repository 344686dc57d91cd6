package keys

import (
	"crypto/ed25519"
	"fmt"

	"filippo.io/edwards25519"
)

// checkEd25519Public refuses an Ed25519 public key that is not the one
// encoding of a point of large order. crypto/ed25519.Verify accepts any 32
// bytes: under a small-order key (the identity 01 00…00 among them) a
// made-up signature verifies for every body, so anyone could stamp as its
// user; and an encoding with y ≥ p is a second string for a point, which
// would let one key register as two credentials. Errors wrap ErrBadPublicKey.
func checkEd25519Public(raw []byte) error {
	if len(raw) != ed25519.PublicKeySize {
		return fmt.Errorf("%w: %d bytes; an Ed25519 public key is 32 bytes", ErrBadPublicKey, len(raw))
	}
	p, err := new(edwards25519.Point).SetBytes(raw)
	if err != nil {
		return fmt.Errorf("%w: %x… is not a point on Ed25519; use the public key of a generated Ed25519 key pair", ErrBadPublicKey, raw[:4])
	}
	if string(p.Bytes()) != string(raw) {
		return fmt.Errorf("%w: %x… is a non-canonical Ed25519 encoding (y is not below 2^255-19); send the key as its key pair writes it, %x…", ErrBadPublicKey, raw[:4], p.Bytes()[:4])
	}
	if new(edwards25519.Point).MultByCofactor(p).Equal(edwards25519.NewIdentityPoint()) == 1 {
		return fmt.Errorf("%w: %x… is a small-order Ed25519 point, under which anyone can sign anything; use the public key of a generated Ed25519 key pair", ErrBadPublicKey, raw[:4])
	}
	return nil
}

// CheckEd25519Public is checkEd25519Public for a key that verifies other
// signatures than stamps (a webhook delivery's, under a pinned or fetched
// key): a small-order key would let anyone forge them.
func CheckEd25519Public(raw []byte) error { return checkEd25519Public(raw) }
