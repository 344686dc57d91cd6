package keys

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// assertion builds a WebAuthn assertion by hand, following the WebAuthn
// specification, independently of SoftAuthenticator.
func assertion(t *testing.T, priv *ecdsa.PrivateKey, body []byte, flags byte) WebAuthnStamp {
	t.Helper()
	d := sha256.Sum256(body)
	challenge := base64.RawURLEncoding.EncodeToString([]byte(hex.EncodeToString(d[:])))
	clientData := []byte(`{"type":"webauthn.get","challenge":"` + challenge + `","origin":"https://example.com","crossOrigin":false}`)
	rp := sha256.Sum256([]byte("example.com"))
	authData := append(rp[:], flags, 0, 0, 0, 7)
	cdh := sha256.Sum256(clientData)
	msg := sha256.Sum256(append(append([]byte(nil), authData...), cdh[:]...))
	sig, err := ecdsa.SignASN1(rand.Reader, priv, msg[:])
	if err != nil {
		t.Fatal(err)
	}
	e := base64.RawURLEncoding.EncodeToString
	return WebAuthnStamp{AuthenticatorData: e(authData), ClientDataJSON: e(clientData), CredentialID: e([]byte("cred-1")), Signature: e(sig)}
}

func TestVerifyWebAuthnHandBuiltAssertion(t *testing.T) {
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	uncompressed, _ := priv.PublicKey.Bytes()
	pubHex := hex.EncodeToString(uncompressed)
	body := []byte(`{"organizationId":"o"}`)

	if err := VerifyWebAuthn(assertion(t, priv, body, 0x01), body, pubHex); err != nil {
		t.Fatalf("valid assertion refused: %v", err)
	}
	if err := VerifyWebAuthn(assertion(t, priv, body, 0x04), body, pubHex); !errors.Is(err, ErrUserNotPresent) {
		t.Errorf("assertion without UP: %v, want ErrUserNotPresent", err)
	}
	if err := VerifyWebAuthn(assertion(t, priv, body, 0x01), []byte(`{"organizationId":"x"}`), pubHex); !errors.Is(err, ErrChallengeMismatch) {
		t.Errorf("other body: %v, want ErrChallengeMismatch", err)
	}
	other, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err := VerifyWebAuthn(assertion(t, other, body, 0x01), body, pubHex); !errors.Is(err, ErrBadSignature) {
		t.Errorf("signed by another key: %v, want ErrBadSignature", err)
	}
	if err := VerifyWebAuthn(assertion(t, priv, body, 0x01), body, "04abcd"); !errors.Is(err, ErrBadPublicKey) {
		t.Errorf("bad registered key: %v, want ErrBadPublicKey", err)
	}
}

func TestSoftAuthenticatorStamps(t *testing.T) {
	a, err := NewSoftAuthenticator("")
	if err != nil {
		t.Fatal(err)
	}
	body := []byte(`{"type":"ACTIVITY_TYPE_CREATE_POLICY_V3"}`)
	header, value, err := a.Stamp(body)
	if err != nil {
		t.Fatal(err)
	}
	if header != "X-Stamp-WebAuthn" {
		t.Errorf("header = %q", header)
	}
	// The header is plain JSON with the four documented keys.
	var m map[string]string
	if err := json.Unmarshal([]byte(value), &m); err != nil || len(m) != 4 || m["credentialId"] != a.CredentialID() {
		t.Fatalf("header value %s: %v", value, err)
	}
	s, err := ParseWebAuthnStamp(value)
	if err != nil {
		t.Fatal(err)
	}
	if err := VerifyWebAuthn(s, body, a.PublicKeyHex()); err != nil {
		t.Fatalf("own stamp refused: %v", err)
	}
	if err := VerifyWebAuthn(s, append(body, ' '), a.PublicKeyHex()); !errors.Is(err, ErrChallengeMismatch) {
		t.Errorf("other body: %v, want ErrChallengeMismatch", err)
	}
	sig, _ := base64.RawURLEncoding.DecodeString(s.Signature)
	sig[len(sig)-1] ^= 1
	bad := s
	bad.Signature = base64.RawURLEncoding.EncodeToString(sig)
	if err := VerifyWebAuthn(bad, body, a.PublicKeyHex()); !errors.Is(err, ErrBadSignature) {
		t.Errorf("tampered signature: %v, want ErrBadSignature", err)
	}

	again, err := NewSoftAuthenticatorFromKey(a.CredentialID(), a.PrivateKeyHex())
	if err != nil || again.PublicKeyHex() != a.PublicKeyHex() {
		t.Fatalf("rebuilt authenticator: %v, key %s want %s", err, again.PublicKeyHex(), a.PublicKeyHex())
	}
}

func TestParseWebAuthnStampRejects(t *testing.T) {
	for name, v := range map[string]string{
		"not JSON":      "eyJ9",
		"missing field": `{"authenticatorData":"AA","clientDataJson":"AA","credentialId":"AA"}`,
		"padded value":  `{"authenticatorData":"AA==","clientDataJson":"AA","credentialId":"AA","signature":"AA"}`,
		"extra field":   `{"authenticatorData":"AA","clientDataJson":"AA","credentialId":"AA","signature":"AA","x":"y"}`,
		"number value":  `{"authenticatorData":1,"clientDataJson":"AA","credentialId":"AA","signature":"AA"}`,
	} {
		if _, err := ParseWebAuthnStamp(v); !errors.Is(err, ErrMalformedStamp) {
			t.Errorf("%s: %v, want ErrMalformedStamp", name, err)
		}
	}
	if _, err := NewSoftAuthenticator("not/base64url"); err == nil {
		t.Error("credential id with '/' accepted")
	}
}

func FuzzVerifyWebAuthn(f *testing.F) {
	a, err := NewSoftAuthenticator("")
	if err != nil {
		f.Fatal(err)
	}
	body := []byte(`{"a":1}`)
	_, v, _ := a.Stamp(body)
	f.Add(v, body)
	f.Add(`{"authenticatorData":"","clientDataJson":"e30","credentialId":"AA","signature":"MAA"}`, []byte{})
	f.Add(`{}`, []byte("x"))
	f.Fuzz(func(t *testing.T, header string, body []byte) {
		s, err := ParseWebAuthnStamp(header)
		if err != nil {
			return
		}
		// Must not panic; an accepted assertion must really be over body.
		if VerifyWebAuthn(s, body, a.PublicKeyHex()) == nil {
			d := sha256.Sum256(body)
			cd, _ := base64.RawURLEncoding.DecodeString(s.ClientDataJSON)
			var c struct{ Challenge string }
			json.Unmarshal(cd, &c)
			got, _ := base64.RawURLEncoding.DecodeString(strings.TrimRight(c.Challenge, "="))
			if string(got) != hex.EncodeToString(d[:]) {
				t.Fatalf("accepted an assertion whose challenge %q is not this body's", got)
			}
		}
	})
}
