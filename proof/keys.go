package proof

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"math/big"
	"strings"
)

// qosPublicKeyLen is a QOS P-256 public key: encryption key ‖ signing key, each an
// uncompressed SEC1 point of 65 bytes.
const qosPublicKeyLen = 130

// SigningHalf is the signing key of a QOS public key (bytes 65..130), the
// half approvals and app proofs are checked against; the encryption half
// before it is public, so it names no signer. ok is false unless key is 130
// bytes.
func SigningHalf(key []byte) (half []byte, ok bool) {
	if len(key) != qosPublicKeyLen {
		return nil, false
	}
	return key[qosPublicKeyLen/2:], true
}

// QOSKeyError says why key is not a QOS public key (130 bytes, two
// uncompressed P-256 points), as QOS's P256Public::from_bytes would refuse
// it; nil when it is one.
func QOSKeyError(key []byte) error {
	_, err := qosSigningKey(key)
	return err
}

// qosSigningKey returns the signing half (bytes 65..130) of a QOS public key.
func qosSigningKey(b []byte) (*ecdsa.PublicKey, error) {
	if len(b) != qosPublicKeyLen {
		return nil, fmt.Errorf("public key is %d bytes, want %d (encryption key ‖ signing key)", len(b), qosPublicKeyLen)
	}
	if _, err := ecdsa.ParseUncompressedPublicKey(p256(), b[:65]); err != nil {
		return nil, fmt.Errorf("encryption half is not an uncompressed P-256 point: %w", err)
	}
	k, err := ecdsa.ParseUncompressedPublicKey(p256(), b[65:])
	if err != nil {
		return nil, fmt.Errorf("signing half is not an uncompressed P-256 point: %w", err)
	}
	return k, nil
}

// verifyP256 checks a 64-byte r‖s signature over SHA-256(msg).
func verifyP256(k *ecdsa.PublicKey, msg, sig []byte) error {
	if len(sig) != 64 {
		return fmt.Errorf("signature is %d bytes, want 64 (r ‖ s)", len(sig))
	}
	digest := sha256.Sum256(msg)
	r := new(big.Int).SetBytes(sig[:32])
	s := new(big.Int).SetBytes(sig[32:])
	if !ecdsa.Verify(k, digest[:], r, s) {
		return errors.New("signature does not verify")
	}
	return nil
}

// decodeB64 accepts standard or URL-safe base64, with or without padding.
func decodeB64(s string) ([]byte, error) {
	s = strings.TrimSpace(s)
	if len(s) > 2*maxManifestSize {
		return nil, fmt.Errorf("%d characters of base64 is over the %d-character limit", len(s), 2*maxManifestSize)
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil {
			return b, nil
		}
	}
	return nil, errors.New("not valid base64")
}

func p256() elliptic.Curve { return elliptic.P256() }

// DecodeBase64 decodes standard or URL-safe base64, padded or not, as boot proofs
// and attestation files come in either.
func DecodeBase64(s string) ([]byte, error) { return decodeB64(s) }
