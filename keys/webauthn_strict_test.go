package keys

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"strings"
	"testing"
)

// signedClientData is an assertion over the given clientDataJSON, for
// relying party example.com, user present, built by hand.
func signedClientData(t *testing.T, priv *ecdsa.PrivateKey, clientData string) WebAuthnStamp {
	t.Helper()
	rp := sha256.Sum256([]byte("example.com"))
	authData := append(rp[:], 0x01, 0, 0, 0, 1)
	cdh := sha256.Sum256([]byte(clientData))
	msg := sha256.Sum256(append(append([]byte(nil), authData...), cdh[:]...))
	sig, err := ecdsa.SignASN1(rand.Reader, priv, msg[:])
	if err != nil {
		t.Fatal(err)
	}
	e := base64.RawURLEncoding.EncodeToString
	return WebAuthnStamp{AuthenticatorData: e(authData), ClientDataJSON: e([]byte(clientData)), CredentialID: e([]byte("cred-1")), Signature: e(sig)}
}

// challengeOf is what a browser writes as the challenge for body: base64url,
// unpadded, of the lowercase hex SHA-256 of body.
func challengeOf(body string) string {
	d := sha256.Sum256([]byte(body))
	return base64.RawURLEncoding.EncodeToString([]byte(hex.EncodeToString(d[:])))
}

// A clientDataJSON that a browser would not write, and that another reader
// could take to say something else than what is checked, is refused even
// when the passkey signed it: duplicated members (last-wins decides), names
// in other cases, a padded challenge, trailing data.
func TestVerifyWebAuthnReadsClientDataStrictly(t *testing.T) {
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	pub, _ := priv.PublicKey.Bytes()
	pubHex := hex.EncodeToString(pub)
	body := `{"organizationId":"o"}`
	c, other := challengeOf(body), challengeOf(`{"organizationId":"x"}`)
	const o = `"origin":"https://example.com"`

	accepted := map[string]string{
		"as Chrome sends it":                 `{"type":"webauthn.get","challenge":"` + c + `",` + o + `,"crossOrigin":false,"other_keys_can_be_added_here":"do not compare clientDataJSON against a template. See https://goo.gl/yabPex"}`,
		"other member order":                 `{` + o + `,"challenge":"` + c + `","type":"webauthn.get"}`,
		"unknown members of any kind, twice": `{"type":"webauthn.get","x":{"a":[1,2,{"b":null}]},"x":true,"challenge":"` + c + `",` + o + `,"tokenBinding":{"status":"supported"}}`,
		"escaped text":                       `{"type":"webauthn\u002eget","challenge":"` + c + `",` + o + `}`,
	}
	for name, cd := range accepted {
		if err := VerifyWebAuthn(signedClientData(t, priv, cd), []byte(body), pubHex); err != nil {
			t.Errorf("%s: refused: %v", name, err)
		}
	}

	refused := map[string]string{
		"type twice (create, then get)":  `{"type":"webauthn.create","challenge":"` + c + `",` + o + `,"type":"webauthn.get"}`,
		"type twice (get, then get)":     `{"type":"webauthn.get","challenge":"` + c + `",` + o + `,"type":"webauthn.get"}`,
		"challenge twice":                `{"type":"webauthn.get","challenge":"` + other + `",` + o + `,"challenge":"` + c + `"}`,
		"origin twice":                   `{"type":"webauthn.get","challenge":"` + c + `",` + o + `,"origin":"https://evil.example"}`,
		"crossOrigin twice":              `{"type":"webauthn.get","challenge":"` + c + `",` + o + `,"crossOrigin":true,"crossOrigin":false}`,
		"TYPE in capitals":               `{"TYPE":"webauthn.get","challenge":"` + c + `",` + o + `}`,
		"Challenge capitalised":          `{"type":"webauthn.get","Challenge":"` + c + `",` + o + `}`,
		"a cased copy beside the real":   `{"type":"webauthn.get","challenge":"` + c + `",` + o + `,"Origin":"https://evil.example"}`,
		"padded challenge":               `{"type":"webauthn.get","challenge":"` + c + `==",` + o + `}`,
		"challenge in standard base64":   `{"type":"webauthn.get","challenge":"` + c[:len(c)-1] + `/",` + o + `}`,
		"not an object":                  `["webauthn.get","` + c + `"]`,
		"null":                           `null`,
		"data after the object":          `{"type":"webauthn.get","challenge":"` + c + `",` + o + `}{}`,
		"no origin":                      `{"type":"webauthn.get","challenge":"` + c + `"}`,
		"crossOrigin not a boolean":      `{"type":"webauthn.get","challenge":"` + c + `",` + o + `,"crossOrigin":"false"}`,
		"type not a string":              `{"type":["webauthn.get"],"challenge":"` + c + `",` + o + `}`,
		"invalid UTF-8 in another value": `{"type":"webauthn.get","challenge":"` + c + `",` + o + `,"x":"` + "\xff" + `"}`,
	}
	// The challenge is 64 bytes: base64 pads it, so "==" is the padded form.
	if len(c)%4 == 0 {
		t.Fatalf("challenge %q would need no padding; the padded case tests nothing", c)
	}
	for name, cd := range refused {
		err := VerifyWebAuthn(signedClientData(t, priv, cd), []byte(body), pubHex)
		if !errors.Is(err, ErrMalformedStamp) {
			t.Errorf("%s: %v, want ErrMalformedStamp", name, err)
		}
	}
	// A well-formed challenge of another body is that, not malformed.
	err = VerifyWebAuthn(signedClientData(t, priv, `{"type":"webauthn.get","challenge":"`+other+`",`+o+`}`), []byte(body), pubHex)
	if !errors.Is(err, ErrChallengeMismatch) {
		t.Errorf("another body's challenge: %v, want ErrChallengeMismatch", err)
	}
}

// An assertion made in a frame of another site's page (crossOrigin true, a
// topOrigin) counts only if the organization lists that page's origin too.
func TestCheckWebAuthnOriginRefusesCrossOriginFrames(t *testing.T) {
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	c := challengeOf("{}")
	head := `{"type":"webauthn.get","challenge":"` + c + `","origin":"https://example.com"`
	topLevel := signedClientData(t, priv, head+`,"crossOrigin":false}`)
	framed := signedClientData(t, priv, head+`,"crossOrigin":true,"topOrigin":"https://evil.example"}`)
	framedNoTop := signedClientData(t, priv, head+`,"crossOrigin":true}`)
	topOnly := signedClientData(t, priv, head+`,"topOrigin":"https://evil.example"}`)

	only := []string{"https://example.com"}
	if err := CheckWebAuthnOrigin(topLevel, only); err != nil {
		t.Fatalf("top-level assertion at the allowed origin refused: %v", err)
	}
	for name, s := range map[string]WebAuthnStamp{"framed": framed, "framed, top unsaid": framedNoTop, "topOrigin only": topOnly} {
		err := CheckWebAuthnOrigin(s, only)
		if !errors.Is(err, ErrCrossOrigin) {
			t.Errorf("%s, organization lists only the frame's origin: %v, want ErrCrossOrigin", name, err)
		} else if !strings.Contains(err.Error(), "did not host the ceremony") {
			t.Errorf("%s: the refusal does not say why: %v", name, err)
		}
		if err := CheckWebAuthnTopLevel(s); !errors.Is(err, ErrCrossOrigin) {
			t.Errorf("%s, no origins listed: %v, want ErrCrossOrigin", name, err)
		}
	}
	if err := CheckWebAuthnTopLevel(topLevel); err != nil {
		t.Errorf("top-level assertion refused: %v", err)
	}
	// Listing the top-level page is the organization's opt-in.
	both := []string{"https://example.com", "https://EVIL.example:443"}
	if err := CheckWebAuthnOrigin(framed, both); err != nil {
		t.Errorf("framed assertion, top-level origin listed: %v", err)
	}
	if err := CheckWebAuthnOrigin(framedNoTop, both); !errors.Is(err, ErrCrossOrigin) {
		t.Errorf("framed assertion whose top-level origin is unknown: %v, want ErrCrossOrigin", err)
	}
}

// The official stampers' later releases sign the 32 bytes of the body's
// SHA-256 rather than its hex text: such a stamp is accepted for its body
// and, like the hex form, refused for any other.
func TestVerifyWebAuthnAcceptsTheDigestBytesChallenge(t *testing.T) {
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	pub, _ := priv.PublicKey.Bytes()
	pubHex := hex.EncodeToString(pub)
	body := `{"organizationId":"o"}`
	d := sha256.Sum256([]byte(body))
	raw := base64.RawURLEncoding.EncodeToString(d[:])
	s := signedClientData(t, priv, `{"type":"webauthn.get","challenge":"`+raw+`","origin":"https://example.com"}`)
	if err := VerifyWebAuthn(s, []byte(body), pubHex); err != nil {
		t.Fatalf("challenge of the digest's bytes refused: %v", err)
	}
	if err := VerifyWebAuthn(s, []byte(`{"organizationId":"x"}`), pubHex); !errors.Is(err, ErrChallengeMismatch) {
		t.Errorf("the digest's bytes of another body: %v, want ErrChallengeMismatch", err)
	}
}
