//lint:file-ignore SA1019 these tests build keys, points and signatures from raw big-number coordinates on purpose (high-S twins, the other point of an X, WebCrypto-style keys), which only the deprecated fields express

package keys

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/sha256"
	"encoding/asn1"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"math/big"
	"os"
	"strings"
	"testing"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	k1ecdsa "github.com/decred/dcrd/dcrec/secp256k1/v4/ecdsa"
)

type stampVector struct {
	Name   string `json:"name"`
	Body   string `json:"body"`
	XStamp string `json:"xStamp"`
	Valid  bool   `json:"valid"`
}

func loadStampVectors(t testing.TB) []stampVector {
	t.Helper()
	b, err := os.ReadFile("testdata/x_stamp_vectors.json")
	if err != nil {
		t.Fatalf("read fixture: %v", err)
	}
	var vs []stampVector
	if err := json.Unmarshal(b, &vs); err != nil {
		t.Fatalf("decode fixture: %v", err)
	}
	if len(vs) == 0 {
		t.Fatal("fixture has no vectors")
	}
	return vs
}

// rawStamp decodes a stamp with the standard library only, as the
// independent reference for the tests.
func rawStamp(t testing.TB, v string) map[string]string {
	t.Helper()
	j, err := base64.RawURLEncoding.DecodeString(v)
	if err != nil {
		t.Fatalf("fixture stamp is not base64url: %v", err)
	}
	m := map[string]string{}
	if err := json.Unmarshal(j, &m); err != nil {
		t.Fatalf("fixture stamp JSON: %v", err)
	}
	return m
}

func encodeRaw(t testing.TB, m map[string]string) string {
	t.Helper()
	j, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return base64.RawURLEncoding.EncodeToString(j)
}

func TestVerifyPublishedVector(t *testing.T) {
	for _, v := range loadStampVectors(t) {
		st, err := Verify(v.XStamp, []byte(v.Body))
		if v.Valid != (err == nil) {
			t.Fatalf("%s: Verify error = %v, want valid=%v", v.Name, err, v.Valid)
		}
		if err != nil {
			continue
		}
		want := rawStamp(t, v.XStamp)
		if st.PublicKey != want["publicKey"] || st.Scheme != want["scheme"] || st.Signature != want["signature"] {
			t.Errorf("%s: Verify returned %+v, want the stamp's fields %v", v.Name, st, want)
		}
	}
}

// notOnP256 returns a compressed encoding whose X has no point on P-256,
// found with the standard library.
func notOnP256(t *testing.T) string {
	x := big.NewInt(5)
	for {
		b := make([]byte, 33)
		b[0] = 2
		x.FillBytes(b[1:])
		if px, _ := elliptic.UnmarshalCompressed(elliptic.P256(), b); px == nil {
			return hex.EncodeToString(b)
		}
		x.Add(x, big.NewInt(1))
	}
}

func TestVerifyRejectsTamperedVector(t *testing.T) {
	v := loadStampVectors(t)[0]
	body := []byte(v.Body)
	orig := rawStamp(t, v.XStamp)
	with := func(field, value string) string {
		m := map[string]string{}
		for k, x := range orig {
			m[k] = x
		}
		m[field] = value
		return encodeRaw(t, m)
	}
	flipHex := func(s string, i int) string {
		b, _ := hex.DecodeString(s)
		b[i] ^= 0x01
		return hex.EncodeToString(b)
	}
	pub, _ := hex.DecodeString(orig["publicKey"])
	negated := append([]byte{pub[0] ^ 1}, pub[1:]...) // the other point with this X
	px, py := elliptic.UnmarshalCompressed(elliptic.P256(), pub)
	uncompressed := elliptic.Marshal(elliptic.P256(), px, py)
	_, onK1 := secp256k1.ParsePubKey(pub)
	k1Want := ErrBadSignature
	if onK1 != nil {
		k1Want = ErrBadPublicKey
	}
	sigBytes, _ := hex.DecodeString(orig["signature"])

	if !strings.Contains(base64.URLEncoding.EncodeToString(mustB64(t, v.XStamp)), "=") {
		t.Fatal("test setup: the vector's padded form has no padding")
	}
	tamperedBody := append([]byte(nil), body...)
	tamperedBody[len(tamperedBody)-3] ^= 0x20

	cases := []struct {
		name  string
		stamp string
		body  []byte
		want  error
	}{
		{"one byte of body", v.XStamp, tamperedBody, ErrBadSignature},
		{"body with trailing newline", v.XStamp, append(append([]byte(nil), body...), '\n'), ErrBadSignature},
		{"last byte of signature", with("signature", flipHex(orig["signature"], len(sigBytes)-1)), body, ErrBadSignature},
		{"byte inside r", with("signature", flipHex(orig["signature"], 10)), body, ErrBadSignature},
		{"DER tag of signature", with("signature", flipHex(orig["signature"], 0)), body, ErrMalformedSignature},
		{"negated public key", with("publicKey", hex.EncodeToString(negated)), body, ErrBadSignature},
		{"public key off the curve", with("publicKey", notOnP256(t)), body, ErrBadPublicKey},
		{"uncompressed public key", with("publicKey", hex.EncodeToString(uncompressed)), body, ErrBadPublicKey},
		{"public key not hex", with("publicKey", "zz"+orig["publicKey"][2:]), body, ErrBadPublicKey},
		{"truncated public key", with("publicKey", orig["publicKey"][:64]), body, ErrBadPublicKey},
		{"compressed length, uncompressed prefix", with("publicKey", "04"+orig["publicKey"][2:]), body, ErrBadPublicKey},
		{"scheme changed to secp256k1", with("scheme", SchemeSecp256k1), body, k1Want},
		{"scheme changed to ed25519", with("scheme", SchemeEd25519), body, ErrBadPublicKey},
		{"unknown scheme", with("scheme", "SIGNATURE_SCHEME_TK_API_RSA"), body, ErrUnknownScheme},
		{"padded base64", base64.URLEncoding.EncodeToString(mustB64(t, v.XStamp)), body, ErrMalformedStamp},
		{"standard base64", base64.StdEncoding.EncodeToString(mustB64(t, v.XStamp)), body, ErrMalformedStamp},
		{"not base64", "!!!" + v.XStamp, body, ErrMalformedStamp},
		{"empty", "", body, ErrMalformedStamp},
		{"JSON array", base64.RawURLEncoding.EncodeToString([]byte(`["a"]`)), body, ErrMalformedStamp},
		{"extra field", with("extra", "x"), body, ErrMalformedStamp},
		{"missing field", encodeRaw(t, map[string]string{"publicKey": orig["publicKey"], "scheme": orig["scheme"]}), body, ErrMalformedStamp},
		{"differently cased field", base64.RawURLEncoding.EncodeToString([]byte(`{"PUBLICKEY":"` + orig["publicKey"] + `","scheme":"` + orig["scheme"] + `","signature":"` + orig["signature"] + `"}`)), body, ErrMalformedStamp},
		{"duplicated field", base64.RawURLEncoding.EncodeToString([]byte(`{"publicKey":"` + orig["publicKey"] + `","publicKey":"` + orig["publicKey"] + `","scheme":"` + orig["scheme"] + `","signature":"` + orig["signature"] + `"}`)), body, ErrMalformedStamp},
		{"trailing data", base64.RawURLEncoding.EncodeToString(append(mustB64(t, v.XStamp), []byte("{}")...)), body, ErrMalformedStamp},
		{"huge", strings.Repeat("A", 10000), body, ErrMalformedStamp},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Verify(c.stamp, c.body)
			if !errors.Is(err, c.want) {
				t.Fatalf("Verify error = %v, want %v", err, c.want)
			}
			// Parse refuses all but a bad signature, which needs the body;
			// Parse then Verify answers as Verify does.
			p, perr := NewVerifier(4, nil).Parse(c.stamp)
			if (perr != nil) != (c.want != ErrBadSignature) {
				t.Fatalf("Parse error = %v; want one only for what needs no body", perr)
			}
			if perr == nil {
				_, perr = p.Verify(c.body)
			}
			if perr == nil || perr.Error() != err.Error() {
				t.Fatalf("Parse then Verify: %v, Verify alone: %v", perr, err)
			}
			if strings.HasPrefix(c.name, "compressed length") && !strings.Contains(err.Error(), "starting 0x04") {
				t.Errorf("the error does not name the prefix byte: %v", err)
			}
		})
	}
}

func mustB64(t testing.TB, s string) []byte {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestVerifyNonCanonicalDERAndHighS(t *testing.T) {
	v := loadStampVectors(t)[0]
	orig := rawStamp(t, v.XStamp)
	sigBytes, _ := hex.DecodeString(orig["signature"])
	var sig struct{ R, S *big.Int }
	if _, err := asn1.Unmarshal(sigBytes, &sig); err != nil {
		t.Fatal(err)
	}
	n := elliptic.P256().Params().N
	highS := new(big.Int).Sub(n, sig.S)

	// The high-S twin is mathematically valid, and WebCrypto (the official
	// stamper) produces such signatures: it is accepted, and flagged.
	pub, _ := hex.DecodeString(orig["publicKey"])
	x, y := elliptic.UnmarshalCompressed(elliptic.P256(), pub)
	digest := sha256.Sum256([]byte(v.Body))
	if !ecdsa.Verify(&ecdsa.PublicKey{Curve: elliptic.P256(), X: x, Y: y}, digest[:], sig.R, highS) {
		t.Fatal("test setup: high-S twin does not verify")
	}
	highDER, _ := asn1.Marshal(struct{ R, S *big.Int }{sig.R, highS})
	highStamp := encodeRaw(t, map[string]string{"publicKey": orig["publicKey"], "scheme": orig["scheme"], "signature": hex.EncodeToString(highDER)})
	if st, err := Verify(highStamp, []byte(v.Body)); err != nil || !st.HighS {
		t.Errorf("P-256 high-S twin: HighS=%v err=%v, want accepted and flagged", st.HighS, err)
	}
	if st, err := Verify(v.XStamp, []byte(v.Body)); err != nil || st.HighS {
		t.Errorf("published (low-S) vector: HighS=%v err=%v", st.HighS, err)
	}
	// A canonical but high-S twin with the body changed still fails: the flag
	// is about malleability, not a way around the signature.
	if _, err := Verify(highStamp, []byte(v.Body+" ")); !errors.Is(err, ErrBadSignature) {
		t.Errorf("high-S twin over another body: %v, want ErrBadSignature", err)
	}

	rb, sb := sig.R.Bytes(), sig.S.Bytes()
	intDER := func(b []byte) []byte {
		if b[0]&0x80 != 0 {
			b = append([]byte{0}, b...)
		}
		return append([]byte{0x02, byte(len(b))}, b...)
	}
	rPadded := append([]byte{0x02, byte(len(rb) + 2), 0, 0}, rb...) // needless leading zeros
	if rb[0]&0x80 == 0 {
		rPadded = append([]byte{0x02, byte(len(rb) + 1), 0}, rb...)
	}
	seq := func(parts ...[]byte) []byte {
		body := concat(parts...)
		return append([]byte{0x30, byte(len(body))}, body...)
	}
	longLen := func(parts ...[]byte) []byte {
		body := concat(parts...)
		return append([]byte{0x30, 0x81, byte(len(body))}, body...)
	}
	cases := []struct {
		name string
		sig  []byte
		want error
	}{
		{"padded integer", seq(rPadded, intDER(sb)), ErrMalformedSignature},
		{"long-form length", longLen(intDER(rb), intDER(sb)), ErrMalformedSignature},
		{"trailing byte", append(append([]byte(nil), sigBytes...), 0), ErrMalformedSignature},
		{"raw r||s", append(sig.R.FillBytes(make([]byte, 32)), sig.S.FillBytes(make([]byte, 32))...), ErrMalformedSignature},
		{"zero r", seq([]byte{2, 1, 0}, intDER(sb)), ErrMalformedSignature},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := map[string]string{"publicKey": orig["publicKey"], "scheme": orig["scheme"], "signature": hex.EncodeToString(c.sig)}
			_, err := Verify(encodeRaw(t, m), []byte(v.Body))
			if !errors.Is(err, c.want) {
				t.Fatalf("Verify error = %v, want %v", err, c.want)
			}
		})
	}
}

func TestStampRoundTripAllSchemes(t *testing.T) {
	body := []byte(`{"type":"ACTIVITY_TYPE_APPROVE_ACTIVITY","timestampMs":"1700000000000","organizationId":"org","parameters":{"fingerprint":"sha256:00"}}`)
	for _, scheme := range []string{SchemeP256, SchemeSecp256k1, SchemeEd25519} {
		t.Run(scheme, func(t *testing.T) {
			k, err := Generate(scheme)
			if err != nil {
				t.Fatal(err)
			}
			header, value, err := k.Stamp(body)
			if err != nil {
				t.Fatal(err)
			}
			if header != "X-Stamp" {
				t.Errorf("header = %q, want X-Stamp", header)
			}
			if strings.ContainsAny(value, "=+/") {
				t.Errorf("stamp %q is not unpadded base64url", value)
			}
			st, err := Verify(value, body)
			if err != nil {
				t.Fatalf("Verify own stamp: %v", err)
			}
			if st.PublicKey != k.PublicKeyHex() || st.Scheme != scheme {
				t.Errorf("Verify = %+v, want key %s scheme %s", st, k.PublicKeyHex(), scheme)
			}
			if _, err := Verify(value, append(body, ' ')); !errors.Is(err, ErrBadSignature) {
				t.Errorf("stamp verified over a different body: %v", err)
			}
			// Independent check of the signature with the curve libraries directly.
			raw := rawStamp(t, value)
			pub, _ := hex.DecodeString(raw["publicKey"])
			sig, _ := hex.DecodeString(raw["signature"])
			digest := sha256.Sum256(body)
			switch scheme {
			case SchemeP256:
				x, y := elliptic.UnmarshalCompressed(elliptic.P256(), pub)
				if x == nil || !ecdsa.VerifyASN1(&ecdsa.PublicKey{Curve: elliptic.P256(), X: x, Y: y}, digest[:], sig) {
					t.Error("standard library does not verify the P-256 stamp")
				}
			case SchemeSecp256k1:
				pk, err := secp256k1.ParsePubKey(pub)
				s, err2 := k1ecdsa.ParseDERSignature(sig)
				if err != nil || err2 != nil || !s.Verify(digest[:], pk) {
					t.Errorf("decred does not verify the secp256k1 stamp: %v %v", err, err2)
				}
			case SchemeEd25519:
				if len(pub) != 32 || len(sig) != 64 || !ed25519.Verify(pub, body, sig) {
					t.Error("standard library does not verify the Ed25519 stamp")
				}
			}
		})
	}
}

func TestP256StampsAreLowS(t *testing.T) {
	k, err := Generate(SchemeP256)
	if err != nil {
		t.Fatal(err)
	}
	half := new(big.Int).Rsh(elliptic.P256().Params().N, 1)
	// Half of random signatures are high-S before normalisation; 64 misses
	// the bug with probability 2^-64.
	for i := range 64 {
		_, v, err := k.Stamp([]byte{byte(i)})
		if err != nil {
			t.Fatal(err)
		}
		sig, _ := hex.DecodeString(rawStamp(t, v)["signature"])
		var rs struct{ R, S *big.Int }
		if _, err := asn1.Unmarshal(sig, &rs); err != nil {
			t.Fatal(err)
		}
		if rs.S.Cmp(half) > 0 {
			t.Fatalf("signature %d has high S", i)
		}
	}
}

func TestParsePrivateHexKnownKeys(t *testing.T) {
	one := strings.Repeat("0", 63) + "1"
	p := elliptic.P256().Params()
	gP256 := append([]byte{2 | byte(p.Gy.Bit(0))}, p.Gx.FillBytes(make([]byte, 32))...)
	k1 := secp256k1.Params()
	gK1 := append([]byte{2 | byte(k1.Gy.Bit(0))}, k1.Gx.FillBytes(make([]byte, 32))...)
	cases := []struct {
		scheme, priv, pub, cred string
	}{
		{"p256", one, hex.EncodeToString(gP256), "CREDENTIAL_TYPE_API_KEY_P256"},
		{SchemeSecp256k1, one, hex.EncodeToString(gK1), "CREDENTIAL_TYPE_API_KEY_SECP256K1"},
		// RFC 8032 §7.1 test 1.
		{"ed25519", "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60", "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "CREDENTIAL_TYPE_API_KEY_ED25519"},
	}
	for _, c := range cases {
		k, err := ParsePrivateHex(c.scheme, c.priv+"\n")
		if err != nil {
			t.Fatalf("%s: %v", c.scheme, err)
		}
		if k.PublicKeyHex() != c.pub {
			t.Errorf("%s: public key %s, want %s", c.scheme, k.PublicKeyHex(), c.pub)
		}
		if k.PrivateKeyHex() != c.priv {
			t.Errorf("%s: private key round trip %s, want %s", c.scheme, k.PrivateKeyHex(), c.priv)
		}
		if k.CredentialType() != c.cred {
			t.Errorf("%s: credential type %s, want %s", c.scheme, k.CredentialType(), c.cred)
		}
	}
}

func TestParsePrivateHexRejects(t *testing.T) {
	n := hex.EncodeToString(secp256k1.Params().N.Bytes())
	pn := hex.EncodeToString(elliptic.P256().Params().N.Bytes())
	cases := []struct{ scheme, key, wantInMsg string }{
		{SchemeP256, "abc", "3 hex digits"},
		{SchemeP256, "abz", "character 3 is not a hex digit"},
		{SchemeP256, "abcd", "2 bytes"},
		{SchemeP256, strings.Repeat("0", 64), "P-256 scalar"},
		{SchemeP256, pn, "P-256 scalar"},
		{SchemeSecp256k1, n, "secp256k1 scalar"},
		{SchemeSecp256k1, strings.Repeat("0", 64), "secp256k1 scalar"},
		{"rsa", strings.Repeat("1", 64), "p256, secp256k1 or ed25519"},
	}
	for _, c := range cases {
		_, err := ParsePrivateHex(c.scheme, c.key)
		if err == nil || !strings.Contains(err.Error(), c.wantInMsg) {
			t.Errorf("ParsePrivateHex(%s, %q) error = %v, want one mentioning %q", c.scheme, c.key, err, c.wantInMsg)
		}
	}
}

func FuzzVerify(f *testing.F) {
	for _, v := range loadStampVectors(f) {
		f.Add(v.XStamp, []byte(v.Body))
	}
	body := []byte(`{"a":1}`)
	for _, scheme := range []string{SchemeP256, SchemeSecp256k1, SchemeEd25519} {
		k, err := Generate(scheme)
		if err != nil {
			f.Fatal(err)
		}
		_, v, _ := k.Stamp(body)
		f.Add(v, body)
	}
	f.Add("", []byte{})
	f.Add("e30", []byte("{}"))
	f.Add(base64.RawURLEncoding.EncodeToString([]byte(`{"publicKey":"02","scheme":"SIGNATURE_SCHEME_TK_API_P256","signature":"3000"}`)), body)
	f.Fuzz(func(t *testing.T, stamp string, body []byte) {
		st, err := Verify(stamp, body)
		if err != nil {
			return
		}
		// Anything accepted must name a known scheme and verify again.
		switch st.Scheme {
		case SchemeP256, SchemeSecp256k1, SchemeEd25519:
		default:
			t.Fatalf("accepted unknown scheme %q", st.Scheme)
		}
		if _, err := Verify(encodeRaw(t, map[string]string{"publicKey": st.PublicKey, "scheme": st.Scheme, "signature": st.Signature}), body); err != nil {
			t.Fatalf("accepted stamp does not re-verify after normalisation: %v", err)
		}
	})
}

func BenchmarkStamp(b *testing.B) {
	body := []byte(strings.Repeat(`{"k":"v"}`, 100))
	for _, scheme := range []string{SchemeP256, SchemeSecp256k1, SchemeEd25519} {
		k, err := Generate(scheme)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(scheme, func(b *testing.B) {
			for b.Loop() {
				if _, _, err := k.Stamp(body); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkVerify(b *testing.B) {
	body := []byte(strings.Repeat(`{"k":"v"}`, 100))
	for _, scheme := range []string{SchemeP256, SchemeSecp256k1, SchemeEd25519} {
		k, err := Generate(scheme)
		if err != nil {
			b.Fatal(err)
		}
		_, v, err := k.Stamp(body)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(scheme, func(b *testing.B) {
			for b.Loop() {
				if _, err := Verify(v, body); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// The high-S twin of a valid secp256k1 stamp verifies mathematically and is
// accepted (flagged HighS), as the official Go SDK sends such stamps; the
// twin over another body is still refused.
func TestVerifyAcceptsHighSOnSecp256k1(t *testing.T) {
	k, err := Generate(SchemeSecp256k1)
	if err != nil {
		t.Fatal(err)
	}
	body := []byte(`{"organizationId":"org"}`)
	_, value, err := k.Stamp(body)
	if err != nil {
		t.Fatal(err)
	}
	orig := rawStamp(t, value)
	der, _ := hex.DecodeString(orig["signature"])
	var sig struct{ R, S *big.Int }
	if _, err := asn1.Unmarshal(der, &sig); err != nil {
		t.Fatal(err)
	}
	highS := new(big.Int).Sub(secp256k1.Params().N, sig.S)
	highDER, _ := asn1.Marshal(struct{ R, S *big.Int }{sig.R, highS})
	orig["signature"] = hex.EncodeToString(highDER)
	twin := encodeRaw(t, orig)
	st, err := Verify(twin, body)
	if err != nil || !st.HighS {
		t.Fatalf("secp256k1 high-S twin: HighS=%v err=%v, want accepted and flagged", st.HighS, err)
	}
	if st.Signature != hex.EncodeToString(highDER) {
		t.Errorf("the stamp's signature is reported as %s, want what was sent (%x)", st.Signature, highDER)
	}
	if _, err := Verify(twin, []byte(`{"organizationId":"other"}`)); !errors.Is(err, ErrBadSignature) {
		t.Errorf("high-S twin over another body: %v, want ErrBadSignature", err)
	}
}
