package keys

import (
	"crypto/ecdsa"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"testing"
)

// TestPlainStampDecoderAgrees: whatever the fast decoder accepts, the strict
// JSON decoder accepts with the same values; the rest falls through to it.
func TestPlainStampDecoderAgrees(t *testing.T) {
	for _, raw := range []string{
		`{"publicKey":"02ab","scheme":"SIGNATURE_SCHEME_TK_API_P256","signature":"3045"}`,
		`{"signature":"3045","publicKey":"02ab","scheme":"S"}`,
		`{"publicKey":"02ab","scheme":"S","signature":"3045","extra":"x"}`,
		`{"publicKey":"02ab","publicKey":"02ab","signature":"3045"}`,
		`{"publicKey":"02ab","scheme":"S"}`,
		`{"publicKey":"02ab","scheme":"","signature":"3045"}`,
		`{"publicKey":"02ab","scheme":"S","signature":"30 45"}`,
		`{"public\u004bey":"02ab","scheme":"S","signature":"3045"}`,
		`{"publicKey":"02ab","scheme":"S","signature":"30\u00345"}`,
		`{ "publicKey":"02ab","scheme":"S","signature":"3045"}`,
		`{"publickey":"02ab","scheme":"S","signature":"3045"}`,
		`{"a,b":"x","scheme":"S","signature":"3045"}`,
		`{"publicKey":"02ab","scheme":"S","signature":"3045"}}`,
		`{"publicKey":"02ab","scheme":"S","signature":3045}`,
		`{}`, `{`, ``,
	} {
		fast, ok := decodePlainStamp([]byte(raw))
		fields, err := decodeStringObject([]byte(raw), "publicKey", "scheme", "signature")
		if !ok {
			continue
		}
		if err != nil {
			t.Errorf("%s: fast path accepts, strict decoder refuses: %v", raw, err)
			continue
		}
		if fast.PublicKey != fields["publicKey"] || fast.Scheme != fields["scheme"] || fast.Signature != fields["signature"] {
			t.Errorf("%s: fast %+v, strict %v", raw, fast, fields)
		}
	}
}

// verifyAdmitting is the service's use of a Verifier: parse, verify, and
// admit the key when the signature verifies.
func verifyAdmitting(v *Verifier, stamp string, body []byte) (Stamp, error) {
	p, err := v.Parse(stamp)
	if err != nil {
		return Stamp{}, err
	}
	st, err := p.Verify(body)
	if err != nil {
		return Stamp{}, err
	}
	p.Admitted()
	return st, nil
}

// TestVerifierMatchesVerify: a Verifier gives Verify's answers, for the same
// key seen again (remembered) and for tampered stamps and bodies.
func TestVerifierMatchesVerify(t *testing.T) {
	v := NewVerifier(2, nil)
	for _, scheme := range []string{SchemeP256, SchemeSecp256k1, SchemeEd25519} {
		k, err := Generate(scheme)
		if err != nil {
			t.Fatal(err)
		}
		for range 3 {
			body := []byte(`{"organizationId":"o"}`)
			_, stamp, err := k.Stamp(body)
			if err != nil {
				t.Fatal(err)
			}
			want, werr := Verify(stamp, body)
			got, gerr := verifyAdmitting(v, stamp, body)
			if werr != nil || gerr != nil || got != want {
				t.Fatalf("%s: Verify %+v %v, Verifier %+v %v", scheme, want, werr, got, gerr)
			}
			if _, err := verifyAdmitting(v, stamp, []byte(`{"organizationId":"p"}`)); !errors.Is(err, ErrBadSignature) {
				t.Fatalf("%s: other body: %v, want ErrBadSignature", scheme, err)
			}
		}
	}
}

// BenchmarkVerifierP256 compares Verify with a Verifier that has seen the key
// (the service's case: the same keys over and over), and with VerifyASN1
// alone, the floor both stand on.
func BenchmarkVerifierP256(b *testing.B) {
	k, err := Generate(SchemeP256)
	if err != nil {
		b.Fatal(err)
	}
	body := []byte(`{"organizationId":"9c1a6d3e-6f0e-4b8e-9d53-2f0c2b8a1e11"}`)
	_, stamp, err := k.Stamp(body)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("Verify", func(b *testing.B) {
		for b.Loop() {
			if _, err := Verify(stamp, body); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Verifier", func(b *testing.B) {
		v := NewVerifier(16, nil)
		for b.Loop() {
			if _, err := verifyAdmitting(v, stamp, body); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("VerifyASN1", func(b *testing.B) {
		st, _ := DecodeStamp(stamp)
		raw, _ := hex.DecodeString(st.PublicKey)
		sig, _ := hex.DecodeString(st.Signature)
		pub, err := parseP256Public(raw, false)
		if err != nil {
			b.Fatal(err)
		}
		d := sha256.Sum256(body)
		for b.Loop() {
			if !ecdsa.VerifyASN1(pub, d[:], sig) {
				b.Fatal("does not verify")
			}
		}
	})
}
