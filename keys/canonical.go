package keys

import (
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
)

// CanonicalPublicKey checks that publicKeyHex is a public key of the curve
// credentialType uses and returns the one form a stamp carries: lowercase hex
// of the compressed SEC1 point (02 or 03 followed by X) for P-256 and
// secp256k1, the 32 bytes of an Ed25519 key. A key written compressed and
// uncompressed is then one key, and a key registered uncompressed still
// matches its stamps. Errors wrap ErrBadPublicKey.
func CanonicalPublicKey(credentialType, publicKeyHex string) (string, error) {
	raw, err := hex.DecodeString(publicKeyHex)
	if err != nil {
		return "", fmt.Errorf("%w: %q is not hex", ErrBadPublicKey, truncate(publicKeyHex))
	}
	switch credentialType {
	case CredentialAPIKeySecp256k1:
		pub, err := secp256k1.ParsePubKey(raw)
		if err != nil || len(raw) == 65 && raw[0] != 4 {
			return "", fmt.Errorf("%w: %d bytes starting %#02x is not a point on secp256k1; send the compressed 33-byte form (02 or 03 followed by X)", ErrBadPublicKey, len(raw), firstByte(raw))
		}
		return hex.EncodeToString(pub.SerializeCompressed()), nil
	case CredentialAPIKeyEd25519:
		if err := checkEd25519Public(raw); err != nil {
			return "", err
		}
		return strings.ToLower(publicKeyHex), nil
	case "":
		return "", fmt.Errorf("%w: no credential type to read it as", ErrBadPublicKey)
	}
	// Every other credential type, passkeys included, is a P-256 key.
	pub, err := parseP256Public(raw, true)
	if err != nil {
		return "", err
	}
	u, err := pub.Bytes()
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrBadPublicKey, err)
	}
	return hex.EncodeToString(compressP256(u)), nil
}

// CurveOfCredentialType is the curve of a key registered with this
// credential type: "secp256k1", "ed25519", or "p256" for every other type
// (passkeys, session, OAuth and login keys among them). A compressed
// P-256 key and a secp256k1 key may have the same 33 bytes: the curve is
// part of what a key is.
func CurveOfCredentialType(credentialType string) string {
	switch credentialType {
	case CredentialAPIKeySecp256k1:
		return "secp256k1"
	case CredentialAPIKeyEd25519:
		return "ed25519"
	}
	return "p256"
}

// SigningKeyOf names the key pair behind a stamp of this scheme with this
// public key: its curve and the form a stamp carries (CanonicalPublicKey).
// One key pair then has one name whichever form recorded it (compressed or
// not, in any case) and whether it signed as an API key or a passkey. A
// key that does not parse is named as written, in lower case.
func SigningKeyOf(scheme, publicKeyHex string) string {
	credentialType := CredentialTypeOfScheme(scheme)
	curve := CurveOfCredentialType(credentialType) + ":"
	// What CanonicalPublicKey would give, without decoding a point (the
	// policy evaluation names every vote's key): an Ed25519 key's form is
	// its lower case, valid or not; a compressed key in lower case is its
	// own form, and a key that does not parse is named as written too.
	if credentialType == CredentialAPIKeyEd25519 || isLowerCompressedHex(publicKeyHex) {
		return curve + strings.ToLower(publicKeyHex)
	}
	if pub, err := CanonicalPublicKey(credentialType, publicKeyHex); err == nil {
		return curve + pub
	}
	return curve + strings.ToLower(publicKeyHex)
}

// isLowerCompressedHex reports whether s is a compressed point's 33 bytes
// (02 or 03, then X) in lower-case hex.
func isLowerCompressedHex(s string) bool {
	if len(s) != 66 || s[0] != '0' || s[1] != '2' && s[1] != '3' {
		return false
	}
	for i := 2; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// SamePublicKey reports whether a and b (hex, any case) are one public key
// of the curve credentialType uses, written alike or one compressed and the
// other not: a service may list a key in either form while a stamp carries
// the compressed one. Keys that do not parse are the same only as written.
func SamePublicKey(credentialType, a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	if strings.EqualFold(a, b) {
		return true
	}
	if len(a) == len(b) {
		// Two forms of one point differ in length (33 against 65 bytes).
		return false
	}
	ca, errA := CanonicalPublicKey(credentialType, a)
	cb, errB := CanonicalPublicKey(credentialType, b)
	return errA == nil && errB == nil && ca == cb
}
