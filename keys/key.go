package keys

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	k1ecdsa "github.com/decred/dcrd/dcrec/secp256k1/v4/ecdsa"
)

// Key is a stamping key pair of one scheme.
type Key struct {
	scheme string
	p256   *ecdsa.PrivateKey
	k1     *secp256k1.PrivateKey
	ed     ed25519.PrivateKey
	pubHex string

	// name and expires are set by Store.Load for a key with a recorded
	// expiry: Stamp refuses once it has passed.
	name    string
	expires time.Time
}

// ParseScheme maps a scheme as a user writes it ("p256", "secp256k1",
// "ed25519", any case) or as the wire writes it (SIGNATURE_SCHEME_TK_API_…) to
// the wire constant. The empty string means the default, P-256.
func ParseScheme(s string) (string, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "p256", "p-256", "secp256r1", strings.ToLower(SchemeP256):
		return SchemeP256, nil
	case "secp256k1", "k256", strings.ToLower(SchemeSecp256k1):
		return SchemeSecp256k1, nil
	case "ed25519", strings.ToLower(SchemeEd25519):
		return SchemeEd25519, nil
	}
	if looksSecret(s) || !quotable(strings.TrimSpace(s)) {
		// A key typed where the scheme goes (--scheme KEY NAME, p256
		// forgotten) must not be printed back, nor any long part of it.
		return "", fmt.Errorf("%w: the value given is %s; use p256, secp256k1 or ed25519", ErrUnknownScheme, SecretArg(s, "a scheme"))
	}
	return "", fmt.Errorf("%w: %q; use p256, secp256k1 or ed25519", ErrUnknownScheme, s)
}

// Generate makes a new random key of the scheme (see ParseScheme for the
// accepted spellings).
func Generate(scheme string) (*Key, error) {
	sc, err := ParseScheme(scheme)
	if err != nil {
		return nil, err
	}
	switch sc {
	case SchemeP256:
		priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			return nil, fmt.Errorf("generate P-256 key: %w", err)
		}
		return newP256Key(priv)
	case SchemeSecp256k1:
		priv, err := secp256k1.GeneratePrivateKey()
		if err != nil {
			return nil, fmt.Errorf("generate secp256k1 key: %w", err)
		}
		return newK1Key(priv), nil
	default:
		_, priv, err := ed25519.GenerateKey(rand.Reader)
		if err != nil {
			return nil, fmt.Errorf("generate Ed25519 key: %w", err)
		}
		return newEdKey(priv), nil
	}
}

// ParsePrivateHex reads a private key written as hex: a 32-byte scalar for
// P-256 and secp256k1, a 32-byte seed for Ed25519. Surrounding white space is
// ignored, and so is a leading byte-order mark (a file Notepad saved as UTF-8).
func ParsePrivateHex(scheme, hexKey string) (*Key, error) {
	sc, err := ParseScheme(scheme)
	if err != nil {
		return nil, err
	}
	hexKey = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(hexKey), "\uFEFF"))
	raw, err := hex.DecodeString(hexKey)
	if err != nil {
		// The error does not quote the input: it is a secret.
		return nil, notHexError(hexKey)
	}
	if len(raw) != 32 {
		return nil, fmt.Errorf("private key is %d bytes; %s keys are 32 bytes (64 hex digits)", len(raw), sc)
	}
	switch sc {
	case SchemeP256:
		priv, err := ecdsa.ParseRawPrivateKey(elliptic.P256(), raw)
		if err != nil {
			// Go's error speaks of a public key encoding: what is wrong is
			// the scalar.
			return nil, errors.New("private key is not a valid P-256 scalar (zero or not below the group order): it is not a P-256 key")
		}
		return newP256Key(priv)
	case SchemeSecp256k1:
		var s secp256k1.ModNScalar
		if overflow := s.SetByteSlice(raw); overflow || s.IsZero() {
			return nil, errors.New("private key is not a valid secp256k1 scalar (zero or not below the group order)")
		}
		return newK1Key(secp256k1.NewPrivateKey(&s)), nil
	default:
		return newEdKey(ed25519.NewKeyFromSeed(raw)), nil
	}
}

// notHexError says why a private key given as text is not hex, without
// quoting it: a PEM public key or certificate (the wrong file), PEM, more
// than one line, an odd number of digits (a leading zero dropped), or which
// character is not a hex digit, by position only.
func notHexError(text string) error {
	switch {
	case strings.Contains(text, "-----BEGIN PUBLIC KEY") || strings.Contains(text, "-----BEGIN EC PUBLIC KEY"):
		return errors.New("this is a PEM public key (-----BEGIN PUBLIC KEY-----), not a private key: import needs the private key, the one never shared, as 64 hex digits")
	case strings.Contains(text, "-----BEGIN CERTIFICATE"):
		return errors.New("this is a PEM certificate (-----BEGIN CERTIFICATE-----), which holds only a public key: import needs the private key, the one never shared, as 64 hex digits")
	case strings.Contains(text, "-----BEGIN"):
		return errors.New("private key is PEM, not hex; give the raw key as 64 hex digits ('openssl pkey -in FILE -noout -text' prints it after priv:, without the colons and a leading 00)")
	case strings.ContainsAny(text, "\r\n"):
		return errors.New("private key input holds more than one line; give one key, 64 hex digits on one line")
	}
	for i, r := range []rune(text) {
		if !isHexDigit(r) {
			return fmt.Errorf("private key is not hex: character %d is not a hex digit (0-9, a-f); expected 64 hex digits", i+1)
		}
	}
	// Every character a hex digit: an odd count.
	return fmt.Errorf("private key is %d hex digits; a P-256, secp256k1 or Ed25519 private key is 64: if a leading zero was dropped (a tool that printed the key as a number), add it once you are sure this is the key you mean", len(text))
}

func isHexDigit(r rune) bool {
	return '0' <= r && r <= '9' || 'a' <= r && r <= 'f' || 'A' <= r && r <= 'F'
}

func newP256Key(priv *ecdsa.PrivateKey) (*Key, error) {
	uncompressed, err := priv.PublicKey.Bytes()
	if err != nil {
		return nil, fmt.Errorf("encode P-256 public key: %w", err)
	}
	return &Key{scheme: SchemeP256, p256: priv, pubHex: hex.EncodeToString(compressP256(uncompressed))}, nil
}

func newK1Key(priv *secp256k1.PrivateKey) *Key {
	return &Key{scheme: SchemeSecp256k1, k1: priv, pubHex: hex.EncodeToString(priv.PubKey().SerializeCompressed())}
}

func newEdKey(priv ed25519.PrivateKey) *Key {
	return &Key{scheme: SchemeEd25519, ed: priv, pubHex: hex.EncodeToString(priv.Public().(ed25519.PublicKey))}
}

// Scheme is the key's wire scheme, one of the Scheme* constants.
func (k *Key) Scheme() string { return k.scheme }

// PublicKeyHex is the public key as it appears in a stamp and in the service's
// API key records: compressed SEC1 for the ECDSA schemes, 32 bytes for Ed25519.
func (k *Key) PublicKeyHex() string { return k.pubHex }

// PrivateKeyHex is the private key as the key file stores it.
func (k *Key) PrivateKeyHex() string {
	switch k.scheme {
	case SchemeP256:
		b, err := k.p256.Bytes()
		if err != nil {
			return ""
		}
		return hex.EncodeToString(b)
	case SchemeSecp256k1:
		return hex.EncodeToString(k.k1.Serialize())
	default:
		return hex.EncodeToString(k.ed.Seed())
	}
}

// CredentialType is the service's credential type for an API key of this
// scheme (the Credential* API key values).
func (k *Key) CredentialType() string { return CredentialTypeOfScheme(k.scheme) }

// Stamp signs exactly body and returns the X-Stamp header and its value.
// A key loaded with an expiry that has passed since is refused (wrapping
// ErrKeyExpired), as Load would refuse it now.
func (k *Key) Stamp(body []byte) (header, value string, err error) {
	return k.stampAt(body, time.Now())
}

func (k *Key) stampAt(body []byte, now time.Time) (header, value string, err error) {
	if err := expiredAt(k.name, k.expires, now, ""); err != nil {
		return "", "", fmt.Errorf("stamp: %w", err)
	}
	sig, err := k.sign(body)
	if err != nil {
		return "", "", fmt.Errorf("stamp: %w", err)
	}
	v, err := encodeStamp(Stamp{PublicKey: k.pubHex, Scheme: k.scheme, Signature: hex.EncodeToString(sig)})
	if err != nil {
		return "", "", fmt.Errorf("stamp: %w", err)
	}
	return HeaderStamp, v, nil
}

func (k *Key) sign(body []byte) ([]byte, error) {
	switch k.scheme {
	case SchemeP256:
		digest := sha256.Sum256(body)
		r, s, err := ecdsa.Sign(rand.Reader, k.p256, digest[:])
		if err != nil {
			return nil, fmt.Errorf("sign with P-256: %w", err)
		}
		// Verifiers of this service refuse high-S signatures (they are
		// malleable), and Go's ecdsa does not normalise them.
		if s.Cmp(p256HalfOrder) > 0 {
			s.Sub(elliptic.P256().Params().N, s)
		}
		return marshalDER(r, s)
	case SchemeSecp256k1:
		digest := sha256.Sum256(body)
		// RFC 6979, already low-S.
		return k1ecdsa.Sign(k.k1, digest[:]).Serialize(), nil
	default:
		return ed25519.Sign(k.ed, body), nil
	}
}

// encodeStamp is the X-Stamp value: unpadded base64url of the stamp's JSON.
func encodeStamp(s Stamp) (string, error) {
	j, err := json.Marshal(s)
	if err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(j), nil
}

var p256HalfOrder = new(big.Int).Rsh(elliptic.P256().Params().N, 1)

// compressP256 turns an uncompressed SEC1 point (0x04‖X‖Y) into its
// compressed form (0x02|0x03‖X).
func compressP256(uncompressed []byte) []byte {
	out := make([]byte, 33)
	out[0] = 0x02 | uncompressed[64]&1
	copy(out[1:], uncompressed[1:33])
	return out
}

// parseP256Public accepts a compressed (33 B) or uncompressed (65 B) SEC1 P-256
// point and returns the key; allowUncompressed says whether the 65-byte form
// is acceptable here.
func parseP256Public(b []byte, allowUncompressed bool) (*ecdsa.PublicKey, error) {
	switch {
	case len(b) == 33 && (b[0] == 2 || b[0] == 3):
		x, y := elliptic.UnmarshalCompressed(elliptic.P256(), b)
		if x == nil {
			return nil, fmt.Errorf("%w: not a point on P-256", ErrBadPublicKey)
		}
		u := make([]byte, 65)
		u[0] = 4
		x.FillBytes(u[1:33])
		y.FillBytes(u[33:])
		b = u
	case len(b) == 65 && b[0] == 4:
		if !allowUncompressed {
			return nil, fmt.Errorf("%w: uncompressed 65-byte P-256 key; stamps carry the compressed 33-byte form (02 or 03 followed by X)", ErrBadPublicKey)
		}
	case len(b) == 33:
		return nil, fmt.Errorf("%w: 33 bytes starting 0x%02x; a compressed P-256 public key starts 02 or 03", ErrBadPublicKey, b[0])
	default:
		return nil, fmt.Errorf("%w: %d bytes; a P-256 public key is 33 bytes compressed (02 or 03 followed by X)", ErrBadPublicKey, len(b))
	}
	pub, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), b)
	if err != nil {
		return nil, fmt.Errorf("%w: not a point on P-256", ErrBadPublicKey)
	}
	return pub, nil
}

// truncate shortens untrusted text placed in an error message; callers print
// it with %q so control characters are escaped.
func truncate(s string) string {
	const max = 80
	if len(s) <= max {
		return s
	}
	return s[:max] + "…"
}
