package keys

import (
	"bytes"
	"crypto/ecdh"
	"crypto/hpke"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"strings"
)

// credentialBundleInfo is the HPKE info string of oauth credential bundles.
const credentialBundleInfo = "turnkey_hpke"

// maxBundleLen bounds a credential bundle; real ones carry a 32-byte key.
const maxBundleLen = 4096

// CheckBundleTarget reports whether targetPublicKeyHex is a key
// EncryptCredentialBundle can seal to: a point on P-256, uncompressed or
// compressed SEC1 hex. Services check it before they accept a request whose
// bundle is made later.
func CheckBundleTarget(targetPublicKeyHex string) error {
	raw, err := hex.DecodeString(strings.TrimSpace(targetPublicKeyHex))
	if err != nil {
		return errors.New("not hex")
	}
	_, err = parseP256Public(raw, true)
	return err
}

// EncryptCredentialBundle seals plaintext (an API key's private key) to the
// client's P-256 public key, given as uncompressed (or compressed) SEC1 hex,
// the way the service fills oauthResult.credentialBundle: HPKE base mode with
// DHKEM(P-256), HKDF-SHA256, AES-256-GCM, info "turnkey_hpke", AAD =
// encapsulated key ‖ receiver key (both uncompressed), and the result is
// base58check(compressed encapsulated key ‖ ciphertext).
func EncryptCredentialBundle(targetPublicKeyHex string, plaintext []byte) (string, error) {
	raw, err := hex.DecodeString(strings.TrimSpace(targetPublicKeyHex))
	if err != nil {
		return "", fmt.Errorf("credential bundle: target public key is not hex")
	}
	pub, err := parseP256Public(raw, true)
	if err != nil {
		return "", fmt.Errorf("credential bundle: target public key: %w", err)
	}
	ecdhPub, err := pub.ECDH()
	if err != nil {
		return "", fmt.Errorf("credential bundle: %w", err)
	}
	hpkePub, err := hpke.NewDHKEMPublicKey(ecdhPub)
	if err != nil {
		return "", fmt.Errorf("credential bundle: %w", err)
	}
	enc, sender, err := hpke.NewSender(hpkePub, hpke.HKDFSHA256(), hpke.AES256GCM(), []byte(credentialBundleInfo))
	if err != nil {
		return "", fmt.Errorf("credential bundle: %w", err)
	}
	ct, err := sender.Seal(concat(enc, ecdhPub.Bytes()), plaintext)
	if err != nil {
		return "", fmt.Errorf("credential bundle: %w", err)
	}
	return Base58CheckEncode(concat(compressP256(enc), ct)), nil
}

// DecryptCredentialBundle opens an oauth credential bundle with the private
// key whose public half was sent as targetPublicKey.
func DecryptCredentialBundle(bundle string, receiver *ecdh.PrivateKey) ([]byte, error) {
	if receiver == nil || receiver.Curve() != ecdh.P256() {
		return nil, errors.New("credential bundle: the receiver key must be a P-256 key")
	}
	bundle = strings.TrimSpace(bundle)
	if len(bundle) > maxBundleLen {
		return nil, fmt.Errorf("credential bundle: %d characters, more than the %d allowed", len(bundle), maxBundleLen)
	}
	payload, err := Base58CheckDecode(bundle)
	if err != nil {
		return nil, fmt.Errorf("credential bundle: %w", err)
	}
	if len(payload) < 33+16 {
		return nil, fmt.Errorf("credential bundle: %d bytes, too short for an encapsulated key and a ciphertext", len(payload))
	}
	encPub, err := parseP256Public(payload[:33], false)
	if err != nil {
		return nil, fmt.Errorf("credential bundle: encapsulated key: %w", err)
	}
	enc, err := encPub.Bytes()
	if err != nil {
		return nil, fmt.Errorf("credential bundle: %w", err)
	}
	hpkePriv, err := hpke.NewDHKEMPrivateKey(receiver)
	if err != nil {
		return nil, fmt.Errorf("credential bundle: %w", err)
	}
	r, err := hpke.NewRecipient(enc, hpkePriv, hpke.HKDFSHA256(), hpke.AES256GCM(), []byte(credentialBundleInfo))
	if err != nil {
		return nil, fmt.Errorf("credential bundle: %w", err)
	}
	pt, err := r.Open(concat(enc, receiver.PublicKey().Bytes()), payload[33:])
	if err != nil {
		return nil, errors.New("credential bundle: does not decrypt with this key (wrong receiver key, or the bundle was altered)")
	}
	return pt, nil
}

func concat(parts ...[]byte) []byte {
	var out []byte
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

const base58Alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"

// Base58Encode encodes b with the Bitcoin alphabet; each leading zero byte
// becomes a leading '1'.
func Base58Encode(b []byte) string {
	zeros := 0
	for zeros < len(b) && b[zeros] == 0 {
		zeros++
	}
	n := new(big.Int).SetBytes(b)
	base, mod := big.NewInt(58), new(big.Int)
	var out []byte
	for n.Sign() > 0 {
		n.DivMod(n, base, mod)
		out = append(out, base58Alphabet[mod.Int64()])
	}
	for range zeros {
		out = append(out, '1')
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return string(out)
}

// Base58Decode decodes Bitcoin-alphabet base58.
func Base58Decode(s string) ([]byte, error) {
	if len(s) > maxBundleLen {
		return nil, fmt.Errorf("base58: %d characters, more than the %d allowed", len(s), maxBundleLen)
	}
	n := new(big.Int)
	base := big.NewInt(58)
	zeros := 0
	for zeros < len(s) && s[zeros] == '1' {
		zeros++
	}
	for i := 0; i < len(s); i++ {
		d := strings.IndexByte(base58Alphabet, s[i])
		if d < 0 {
			return nil, fmt.Errorf("base58: invalid character %q at offset %d", s[i], i)
		}
		n.Mul(n, base)
		n.Add(n, big.NewInt(int64(d)))
	}
	return append(make([]byte, zeros), n.Bytes()...), nil
}

// Base58CheckEncode appends the 4-byte double-SHA-256 checksum and encodes.
func Base58CheckEncode(payload []byte) string {
	return Base58Encode(concat(payload, base58Checksum(payload)))
}

// Base58CheckDecode decodes and verifies the 4-byte checksum, returning the
// payload without it.
func Base58CheckDecode(s string) ([]byte, error) {
	b, err := Base58Decode(s)
	if err != nil {
		return nil, err
	}
	if len(b) < 4 {
		return nil, errors.New("base58check: shorter than its 4-byte checksum")
	}
	payload, sum := b[:len(b)-4], b[len(b)-4:]
	if !bytes.Equal(sum, base58Checksum(payload)) {
		return nil, errors.New("base58check: checksum mismatch (the value was altered or truncated)")
	}
	return payload, nil
}

func base58Checksum(payload []byte) []byte {
	h1 := sha256.Sum256(payload)
	h2 := sha256.Sum256(h1[:])
	return h2[:4]
}
