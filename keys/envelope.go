package keys

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha512"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
)

// Enclave envelope encryption (QOS P256EncryptPair), used for
// encryptedClientSecret: see DESIGN.md §3.
const (
	envelopeHMACMessage = "qos_encryption_hmac_message"
	envelopeNonceLen    = 12
	envelopePubLen      = 65
	// envelopeMaxMessage bounds a decrypted secret; OAuth client secrets are
	// far smaller.
	envelopeMaxMessage = 64 << 10
)

// envelopeTagLen is AES-GCM's tag, sealed after the message.
const envelopeTagLen = 16

// EnvelopeMaxPlaintext is the longest plaintext, in bytes, whose
// EnvelopeEncrypt hex fits in maxHex characters: the hex doubles the nonce,
// the ephemeral key, the length prefix, the message and its tag.
func EnvelopeMaxPlaintext(maxHex int) int {
	return max(maxHex/2-(envelopeNonceLen+envelopePubLen+4+envelopeTagLen), 0)
}

// EnvelopeEncrypt encrypts plaintext to the enclave key targetPublicUncompressed
// (65-byte uncompressed SEC1 P-256) and returns the hex of the Borsh envelope
// {nonce [12]u8, ephemeralSenderPublic [65]u8, encryptedMessage Vec<u8>}.
func EnvelopeEncrypt(targetPublicUncompressed []byte, plaintext []byte) (string, error) {
	if len(targetPublicUncompressed) != envelopePubLen || targetPublicUncompressed[0] != 4 {
		return "", fmt.Errorf("envelope encrypt: target key is %d bytes; expected a 65-byte uncompressed P-256 key (04‖X‖Y)", len(targetPublicUncompressed))
	}
	if len(plaintext) > envelopeMaxMessage {
		return "", fmt.Errorf("envelope encrypt: message is %d bytes, more than the %d allowed", len(plaintext), envelopeMaxMessage)
	}
	target, err := ecdh.P256().NewPublicKey(targetPublicUncompressed)
	if err != nil {
		return "", fmt.Errorf("envelope encrypt: target key is not a P-256 point: %w", err)
	}
	eph, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		return "", fmt.Errorf("envelope encrypt: %w", err)
	}
	ephPub := eph.PublicKey().Bytes()
	aead, err := envelopeAEAD(eph, target, ephPub, targetPublicUncompressed)
	if err != nil {
		return "", fmt.Errorf("envelope encrypt: %w", err)
	}
	nonce := make([]byte, envelopeNonceLen)
	if _, err := rand.Read(nonce); err != nil {
		return "", fmt.Errorf("envelope encrypt: %w", err)
	}
	ct := aead.Seal(nil, nonce, plaintext, envelopeAAD(ephPub, targetPublicUncompressed))

	out := make([]byte, 0, envelopeNonceLen+envelopePubLen+4+len(ct))
	out = append(out, nonce...)
	out = append(out, ephPub...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(ct)))
	out = append(out, ct...)
	return hex.EncodeToString(out), nil
}

// EnvelopeDecrypt opens a value made by EnvelopeEncrypt with the target's
// private key.
func EnvelopeDecrypt(target *ecdh.PrivateKey, value string) ([]byte, error) {
	if target == nil || target.Curve() != ecdh.P256() {
		return nil, errors.New("envelope decrypt: the target key must be a P-256 key")
	}
	value = strings.TrimSpace(value)
	if len(value) > 2*(envelopeNonceLen+envelopePubLen+4+envelopeMaxMessage+16) {
		return nil, fmt.Errorf("envelope decrypt: value is %d characters, too long", len(value))
	}
	raw, err := hex.DecodeString(value)
	if err != nil {
		return nil, errors.New("envelope decrypt: value is not hex")
	}
	const head = envelopeNonceLen + envelopePubLen + 4
	if len(raw) < head {
		return nil, fmt.Errorf("envelope decrypt: %d bytes, shorter than the %d-byte envelope header", len(raw), head)
	}
	nonce := raw[:envelopeNonceLen]
	ephPub := raw[envelopeNonceLen : envelopeNonceLen+envelopePubLen]
	n := binary.LittleEndian.Uint32(raw[head-4 : head])
	ct := raw[head:]
	if uint64(n) != uint64(len(ct)) {
		return nil, fmt.Errorf("envelope decrypt: encryptedMessage length says %d bytes but %d follow", n, len(ct))
	}
	eph, err := ecdh.P256().NewPublicKey(ephPub)
	if err != nil {
		return nil, errors.New("envelope decrypt: the ephemeral sender key is not an uncompressed P-256 point")
	}
	targetPub := target.PublicKey().Bytes()
	aead, err := envelopeAEAD(target, eph, ephPub, targetPub)
	if err != nil {
		return nil, fmt.Errorf("envelope decrypt: %w", err)
	}
	pt, err := aead.Open(nil, nonce, ct, envelopeAAD(ephPub, targetPub))
	if err != nil {
		return nil, errors.New("envelope decrypt: does not decrypt with this key (wrong key, or the value was altered)")
	}
	return pt, nil
}

// envelopeAEAD derives the AES-256-GCM key: the first 32 bytes of
// HMAC-SHA512(key = ephemeralPub ‖ targetPub ‖ sharedX, "qos_encryption_hmac_message").
// priv and peer are the two ends of the ECDH, whichever side computes it.
func envelopeAEAD(priv *ecdh.PrivateKey, peer *ecdh.PublicKey, ephPub, targetPub []byte) (cipher.AEAD, error) {
	shared, err := priv.ECDH(peer)
	if err != nil {
		return nil, err
	}
	mac := hmac.New(sha512.New, concat(ephPub, targetPub, shared))
	mac.Write([]byte(envelopeHMACMessage))
	block, err := aes.NewCipher(mac.Sum(nil)[:32])
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}

// envelopeAAD is ephemeralPub ‖ len ‖ targetPub ‖ len, each length one byte.
func envelopeAAD(ephPub, targetPub []byte) []byte {
	return concat(ephPub, []byte{byte(len(ephPub))}, targetPub, []byte{byte(len(targetPub))})
}
