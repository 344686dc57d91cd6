package keys

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"strings"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	k1ecdsa "github.com/decred/dcrd/dcrec/secp256k1/v4/ecdsa"
	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"
)

// Reasons a stamp is refused. Verify wraps exactly one of them, so callers can
// tell them apart with errors.Is; the wrapped message says what exactly was wrong.
var (
	// ErrMalformedStamp: the header is not unpadded base64url of a JSON object
	// with exactly the string fields publicKey, scheme and signature.
	ErrMalformedStamp = errors.New("malformed stamp")
	// ErrUnknownScheme: the scheme is not one of the Scheme* constants.
	ErrUnknownScheme = errors.New("unknown signature scheme")
	// ErrBadPublicKey: the public key is not hex, has the wrong length or
	// encoding, or is not a point of the scheme's curve.
	ErrBadPublicKey = errors.New("bad public key")
	// ErrMalformedSignature: the signature is not hex, not strict DER, has the
	// wrong length, or holds values out of range.
	ErrMalformedSignature = errors.New("malformed signature")
	// ErrBadSignature: a well-formed signature that does not verify over the
	// body with the stamp's public key.
	ErrBadSignature = errors.New("signature does not verify")
)

// maxStampLen bounds the header value; real stamps are under 400 bytes.
const maxStampLen = 4096

// Stamp is the decoded content of an X-Stamp header.
type Stamp struct {
	PublicKey string `json:"publicKey"`
	Scheme    string `json:"scheme"`
	Signature string `json:"signature"`
	// HighS reports an ECDSA (P-256 or secp256k1) signature whose S is above
	// half the group order: valid, and accepted, but malleable (vigil's own
	// keys always sign low S).
	HighS bool `json:"-"`
}

// Verify decodes an X-Stamp header value and checks its signature over body
// with the stamp's own public key. It does not know which keys are
// registered: the caller must then check that s.PublicKey belongs to the
// caller's user. The returned PublicKey and Signature are lowercase hex.
//
// Every signature must be canonical DER, but an ECDSA signature with a high S is
// accepted on both curves (and reported in HighS): the official clients do not
// normalise S, so about half of their stamps have a high S, and the service
// accepts them. For P-256 that is WebCrypto, under the official API-key
// stamper; for secp256k1 the official Go SDK, which signs with ecdsa.SignASN1.
// Malleability does not matter here: anyone holding one valid stamp can replay
// it as it is, and the activity fingerprint is over the body, not the stamp.
func Verify(headerValue string, body []byte) (Stamp, error) { return verify(headerValue, body, nil) }

// verify is Verify, with parsed public keys taken from (and added to)
// cache when it is not nil.
func verify(headerValue string, body []byte, cache *Verifier) (Stamp, error) {
	p, err := parseStamp(headerValue, cache)
	if err != nil {
		return Stamp{}, err
	}
	return p.Verify(body)
}

// ParsedStamp is an X-Stamp whose every part has been checked but the
// signature itself: its encoding, scheme, public key (a point of the
// scheme's curve) and signature encoding (canonical DER, S in range). It is
// what Verify does before it looks at the body, so that a server can refuse a
// malformed credential before reading the body (Verifier.Parse), then check
// the signature over the body (ParsedStamp.Verify): the two together check
// exactly what Verify does, with the same errors.
type ParsedStamp struct {
	stamp  Stamp  // PublicKey and Signature as lowercase hex
	sigRaw []byte // canonical DER (P-256, secp256k1) or 64 bytes (Ed25519)
	p256   *p256Key
	p256R  *big.Int
	p256S  *big.Int
	cache  *Verifier // remembers admitted keys; may be nil
	ed     ed25519.PublicKey
	k1     *secp256k1.PublicKey
	k1Raw  string // k1's bytes as the Verifier remembers them
	k1R    secp256k1.ModNScalar
	k1S    secp256k1.ModNScalar
	// verified: Verify passed, so Admitted may count the signature.
	verified bool
}

// schemeSecp256k1EIP191 is what the official wallet stamper sends for an
// Ethereum wallet (EIP-191 personal_sign over the body). The service's spec
// lists only the three API-key schemes, so it is refused, but by name.
const schemeSecp256k1EIP191 = "SIGNATURE_SCHEME_TK_API_SECP256K1_EIP191"

// parseStamp is the part of verify that does not need the body.
func parseStamp(headerValue string, cache *Verifier) (ParsedStamp, error) {
	st, err := decodeStamp(headerValue)
	if err != nil {
		return ParsedStamp{}, err
	}
	return parseFields(st, cache)
}

// VerifyFields is Verify for a stamp already taken apart: the publicKey,
// scheme and signature a vote record shows, checked over the message it
// says was signed, exactly as an X-Stamp of those fields over that body.
func VerifyFields(st Stamp, body []byte) (Stamp, error) {
	p, err := parseFields(Stamp{PublicKey: st.PublicKey, Scheme: st.Scheme, Signature: st.Signature}, nil)
	if err != nil {
		return Stamp{}, err
	}
	return p.Verify(body)
}

// parseFields is parseStamp after the base64url and JSON layers.
func parseFields(st Stamp, cache *Verifier) (ParsedStamp, error) {
	if len(st.PublicKey)+len(st.Scheme)+len(st.Signature) > maxStampLen {
		return ParsedStamp{}, fmt.Errorf("%w: the stamp's fields are longer than the %d bytes a stamp may hold", ErrMalformedStamp, maxStampLen)
	}
	pubRaw, err := hex.DecodeString(st.PublicKey)
	if err != nil {
		return ParsedStamp{}, fmt.Errorf("%w: publicKey is not hex", ErrBadPublicKey)
	}
	sigRaw, err := hex.DecodeString(st.Signature)
	if err != nil {
		return ParsedStamp{}, fmt.Errorf("%w: signature is not hex", ErrMalformedSignature)
	}
	st.PublicKey = hex.EncodeToString(pubRaw)
	st.Signature = hex.EncodeToString(sigRaw)
	p := ParsedStamp{sigRaw: sigRaw, cache: cache}

	switch st.Scheme {
	case SchemeP256:
		if p.p256, err = cache.p256(pubRaw); err != nil {
			return ParsedStamp{}, err
		}
		if p.p256R, p.p256S, err = parseStrictDER(sigRaw); err != nil {
			return ParsedStamp{}, err
		}
		st.HighS = p.p256S.Cmp(p256HalfOrder) > 0
	case SchemeSecp256k1:
		if len(pubRaw) != 33 || (pubRaw[0] != 2 && pubRaw[0] != 3) {
			return ParsedStamp{}, fmt.Errorf("%w: %d bytes starting %#02x; a secp256k1 stamp key is 33 bytes compressed (02 or 03 followed by X)", ErrBadPublicKey, len(pubRaw), firstByte(pubRaw))
		}
		if p.k1, err = cache.secp256k1(pubRaw); err != nil {
			return ParsedStamp{}, err
		}
		p.k1Raw = string(pubRaw)
		r, s, err := parseStrictDER(sigRaw)
		if err != nil {
			return ParsedStamp{}, err
		}
		// SetByteSlice reads only the first 32 bytes of a longer slice, so a
		// value of 2^256 or more must be refused before it is read.
		if r.BitLen() > 256 || s.BitLen() > 256 {
			return ParsedStamp{}, fmt.Errorf("%w: r or s is not below the secp256k1 group order", ErrMalformedSignature)
		}
		if rOver, sOver := p.k1R.SetByteSlice(r.Bytes()), p.k1S.SetByteSlice(s.Bytes()); rOver || sOver {
			return ParsedStamp{}, fmt.Errorf("%w: r or s is not below the secp256k1 group order", ErrMalformedSignature)
		}
		// (r, s) verifies exactly when (r, n−s) does; verifying the low-S
		// form does not depend on whether the verifier insists on low S.
		if st.HighS = p.k1S.IsOverHalfOrder(); st.HighS {
			p.k1S.Negate()
		}
	case SchemeEd25519:
		if err := checkEd25519Public(pubRaw); err != nil {
			return ParsedStamp{}, err
		}
		if len(sigRaw) != ed25519.SignatureSize {
			return ParsedStamp{}, fmt.Errorf("%w: %d bytes; an Ed25519 signature is 64 bytes", ErrMalformedSignature, len(sigRaw))
		}
		p.ed = pubRaw
	case schemeSecp256k1EIP191:
		return ParsedStamp{}, fmt.Errorf("%w: %q (an Ethereum wallet's personal_sign stamp) is not supported; stamp with an API key of scheme %s, %s or %s",
			ErrUnknownScheme, st.Scheme, SchemeP256, SchemeSecp256k1, SchemeEd25519)
	default:
		return ParsedStamp{}, fmt.Errorf("%w: %q; expected %s, %s or %s", ErrUnknownScheme, truncate(st.Scheme), SchemeP256, SchemeSecp256k1, SchemeEd25519)
	}
	p.stamp = st
	return p, nil
}

// Verify checks the signature over body; errors wrap ErrBadSignature. The
// zero ParsedStamp verifies nothing.
func (p *ParsedStamp) Verify(body []byte) (Stamp, error) {
	switch p.stamp.Scheme {
	case SchemeP256:
		digest := sha256.Sum256(body)
		var ok bool
		if t := p.p256.table.Load(); t != nil {
			ok = verifyP256(t, &digest, p.p256R, p.p256S)
		} else {
			// sigRaw is known to be canonical DER, which VerifyASN1 takes as is.
			ok = ecdsa.VerifyASN1(p.p256.pub, digest[:], p.sigRaw)
		}
		if !ok {
			return Stamp{}, fmt.Errorf("%w: P-256 signature over the SHA-256 of the %d-byte body fails with this public key", ErrBadSignature, len(body))
		}
	case SchemeSecp256k1:
		digest := sha256.Sum256(body)
		if !k1ecdsa.NewSignature(&p.k1R, &p.k1S).Verify(digest[:], p.k1) {
			return Stamp{}, fmt.Errorf("%w: secp256k1 signature over the SHA-256 of the %d-byte body fails with this public key", ErrBadSignature, len(body))
		}
	case SchemeEd25519:
		if !ed25519.Verify(p.ed, body, p.sigRaw) {
			return Stamp{}, fmt.Errorf("%w: Ed25519 signature over the %d-byte body fails with this public key", ErrBadSignature, len(body))
		}
	default:
		return Stamp{}, fmt.Errorf("%w: the stamp was not parsed", ErrMalformedStamp)
	}
	p.verified = true
	return p.stamp, nil
}

// Admitted tells the Verifier that parsed p that the service accepts the
// stamp's key (registered, not expired, of the organization asked) after its
// signature verified: only such keys are remembered, and only their
// signatures count toward a P-256 key's table (Verifier), so that keys the
// service does not know can neither fill the map nor take the tables.
// Before a successful Verify, or without a Verifier, it does nothing.
func (p *ParsedStamp) Admitted() {
	if !p.verified || p.cache == nil {
		return
	}
	switch {
	case p.p256 != nil:
		p.cache.admitP256(p.p256)
	case p.k1 != nil:
		p.cache.admitSecp256k1(p.k1Raw, p.k1)
	}
}

func firstByte(b []byte) byte {
	if len(b) == 0 {
		return 0
	}
	return b[0]
}

// DecodeStamp undoes the base64url and JSON layers of an X-Stamp without
// checking the key or the signature: its fields are untrusted claims (use
// Verify to check them). Errors wrap ErrMalformedStamp.
func DecodeStamp(headerValue string) (Stamp, error) { return decodeStamp(headerValue) }

// decodeStamp undoes the base64url and JSON layers of an X-Stamp.
func decodeStamp(headerValue string) (Stamp, error) {
	if headerValue == "" {
		return Stamp{}, fmt.Errorf("%w: empty X-Stamp", ErrMalformedStamp)
	}
	if len(headerValue) > maxStampLen {
		return Stamp{}, fmt.Errorf("%w: X-Stamp is %d bytes, more than the %d allowed", ErrMalformedStamp, len(headerValue), maxStampLen)
	}
	if i := strings.IndexAny(headerValue, "=+/"); i >= 0 {
		what := "padding '='"
		if headerValue[i] != '=' {
			what = fmt.Sprintf("%q, a standard-base64 character", headerValue[i])
		}
		return Stamp{}, fmt.Errorf("%w: X-Stamp contains %s at offset %d; it must be base64url without padding", ErrMalformedStamp, what, i)
	}
	raw, err := base64.RawURLEncoding.Strict().DecodeString(headerValue)
	if err != nil {
		return Stamp{}, fmt.Errorf("%w: X-Stamp is not base64url without padding (%v)", ErrMalformedStamp, err)
	}
	if st, ok := decodePlainStamp(raw); ok {
		return st, nil
	}
	fields, err := decodeStringObject(raw, "publicKey", "scheme", "signature")
	if err != nil {
		return Stamp{}, fmt.Errorf("%w: %v", ErrMalformedStamp, err)
	}
	return Stamp{PublicKey: fields["publicKey"], Scheme: fields["scheme"], Signature: fields["signature"]}, nil
}

// decodePlainStamp decodes, without encoding/json, the form every stamper
// sends: {"publicKey":"…","scheme":"…","signature":"…"} in any order, with no
// whitespace and values of letters, digits and underscores only. Anything else
// (escapes, spaces, other fields, duplicates) is left to decodeStringObject,
// which accepts this form with the same values, so both paths agree.
func decodePlainStamp(raw []byte) (Stamp, bool) {
	if len(raw) < 2 || raw[0] != '{' || raw[len(raw)-1] != '}' {
		return Stamp{}, false
	}
	var st Stamp
	rest := raw[1 : len(raw)-1]
	for i := range 3 {
		var member []byte
		if i < 2 {
			j := bytes.IndexByte(rest, ',')
			if j < 0 {
				return Stamp{}, false
			}
			member, rest = rest[:j], rest[j+1:]
		} else {
			member = rest
		}
		name, value, ok := plainMember(member)
		if !ok {
			return Stamp{}, false
		}
		var field *string
		switch name {
		case "publicKey":
			field = &st.PublicKey
		case "scheme":
			field = &st.Scheme
		case "signature":
			field = &st.Signature
		default:
			return Stamp{}, false
		}
		if *field != "" {
			return Stamp{}, false // a duplicate
		}
		*field = value
	}
	return st, true
}

// plainMember splits "name":"value" where value is non-empty and made of
// letters, digits and underscores.
func plainMember(m []byte) (name, value string, ok bool) {
	if len(m) < 2 || m[0] != '"' {
		return "", "", false
	}
	end := bytes.IndexByte(m[1:], '"')
	if end < 0 {
		return "", "", false
	}
	name, m = string(m[1:1+end]), m[2+end:]
	if len(m) < 4 || m[0] != ':' || m[1] != '"' || m[len(m)-1] != '"' {
		return "", "", false
	}
	v := m[2 : len(m)-1]
	if len(v) == 0 {
		return "", "", false
	}
	for _, c := range v {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return "", "", false
		}
	}
	return name, string(v), true
}

// decodeStringObject decodes a JSON object whose members are exactly the named
// keys, each once, each a non-empty string. encoding/json would accept
// differently-cased keys, duplicates and extra members silently; a stamp
// verifier should not.
func decodeStringObject(raw []byte, names ...string) (map[string]string, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil || tok != json.Delim('{') {
		return nil, errors.New("content is not a JSON object")
	}
	want := make(map[string]bool, len(names))
	for _, n := range names {
		want[n] = true
	}
	out := make(map[string]string, len(names))
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("content is not valid JSON: %v", err)
		}
		key, _ := tok.(string)
		if !want[key] {
			return nil, fmt.Errorf("unexpected field %q; expected only %s", truncate(key), strings.Join(names, ", "))
		}
		if _, dup := out[key]; dup {
			return nil, fmt.Errorf("field %q appears twice", key)
		}
		tok, err = dec.Token()
		if err != nil {
			return nil, fmt.Errorf("content is not valid JSON: %v", err)
		}
		val, ok := tok.(string)
		if !ok {
			return nil, fmt.Errorf("field %q is not a string", key)
		}
		if val == "" {
			return nil, fmt.Errorf("field %q is empty", key)
		}
		out[key] = val
	}
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("content is not valid JSON: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("content has data after the JSON object")
	}
	for _, n := range names {
		if _, ok := out[n]; !ok {
			return nil, fmt.Errorf("field %q is missing", n)
		}
	}
	return out, nil
}

// parseStrictDER decodes a DER ECDSA signature and refuses every other
// encoding of the same values (BER or non-minimal lengths, padded integers,
// trailing bytes), and zero or negative values. cryptobyte reads DER
// strictly, without reflection.
func parseStrictDER(sig []byte) (r, s *big.Int, err error) {
	in := cryptobyte.String(sig)
	var seq cryptobyte.String
	if !in.ReadASN1(&seq, cbasn1.SEQUENCE) {
		return nil, nil, fmt.Errorf("%w: not a DER SEQUENCE of two INTEGERs", ErrMalformedSignature)
	}
	if len(in) != 0 {
		return nil, nil, fmt.Errorf("%w: %d bytes after the DER signature", ErrMalformedSignature, len(in))
	}
	r, s = new(big.Int), new(big.Int)
	if !seq.ReadASN1Integer(r) || !seq.ReadASN1Integer(s) || !seq.Empty() {
		return nil, nil, fmt.Errorf("%w: not a DER SEQUENCE of exactly two minimally encoded INTEGERs", ErrMalformedSignature)
	}
	if r.Sign() <= 0 || s.Sign() <= 0 {
		return nil, nil, fmt.Errorf("%w: r and s must be positive", ErrMalformedSignature)
	}
	return r, s, nil
}

// PublicKey is the stamp's public key as lowercase hex: the key it claims
// to be made with, before Verify has checked the signature.
func (p *ParsedStamp) PublicKey() string { return p.stamp.PublicKey }

// marshalDER encodes an ECDSA signature as DER, as stamps carry it.
func marshalDER(r, s *big.Int) ([]byte, error) {
	var b cryptobyte.Builder
	b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
		b.AddASN1BigInt(r)
		b.AddASN1BigInt(s)
	})
	return b.Bytes()
}
