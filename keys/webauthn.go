package keys

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
)

// Reasons a WebAuthn stamp is refused, beside the X-Stamp ones
// (ErrMalformedStamp, ErrBadPublicKey, ErrMalformedSignature, ErrBadSignature).
var (
	// ErrChallengeMismatch: the signed challenge is not the hash of this body.
	ErrChallengeMismatch = errors.New("WebAuthn challenge does not match the body")
	// ErrUserNotPresent: the authenticator did not assert user presence.
	ErrUserNotPresent = errors.New("WebAuthn assertion without user presence")
	// ErrOriginNotAllowed: the assertion was made at an origin, or for a
	// relying party, that the organization does not list.
	ErrOriginNotAllowed = errors.New("WebAuthn assertion from an origin not allowed")
)

// WebAuthnStamp is the content of an X-Stamp-WebAuthn header: plain JSON whose
// values are base64url without padding.
type WebAuthnStamp struct {
	AuthenticatorData string `json:"authenticatorData"`
	ClientDataJSON    string `json:"clientDataJson"`
	CredentialID      string `json:"credentialId"`
	Signature         string `json:"signature"`
}

// ParseWebAuthnStamp decodes an X-Stamp-WebAuthn header value. It checks the
// shape only; VerifyWebAuthn checks the assertion.
func ParseWebAuthnStamp(headerValue string) (WebAuthnStamp, error) {
	if len(headerValue) > 4*maxStampLen {
		return WebAuthnStamp{}, fmt.Errorf("%w: X-Stamp-WebAuthn is %d bytes, more than the %d allowed", ErrMalformedStamp, len(headerValue), 4*maxStampLen)
	}
	f, err := decodeStringObject([]byte(headerValue), "authenticatorData", "clientDataJson", "credentialId", "signature")
	if err != nil {
		return WebAuthnStamp{}, fmt.Errorf("%w: X-Stamp-WebAuthn: %v", ErrMalformedStamp, err)
	}
	s := WebAuthnStamp{AuthenticatorData: f["authenticatorData"], ClientDataJSON: f["clientDataJson"], CredentialID: f["credentialId"], Signature: f["signature"]}
	for _, name := range []string{"authenticatorData", "clientDataJson", "credentialId", "signature"} {
		if _, err := decodeB64URL(name, f[name]); err != nil {
			return WebAuthnStamp{}, err
		}
	}
	return s, nil
}

func decodeB64URL(name, v string) ([]byte, error) {
	if strings.ContainsAny(v, "=+/") {
		return nil, fmt.Errorf("%w: %s must be base64url without padding", ErrMalformedStamp, name)
	}
	b, err := base64.RawURLEncoding.Strict().DecodeString(v)
	if err != nil {
		return nil, fmt.Errorf("%w: %s is not base64url without padding (%v)", ErrMalformedStamp, name, err)
	}
	return b, nil
}

// webAuthnChallenge is what the authenticator signs for body: the ASCII
// lowercase hex of SHA-256(body).
func webAuthnChallenge(body []byte) []byte {
	d := sha256.Sum256(body)
	return []byte(hex.EncodeToString(d[:]))
}

// webAuthnAssertion is an X-Stamp-WebAuthn's decoded parts.
type webAuthnAssertion struct {
	authData, clientData, sig []byte
}

// CheckWebAuthnAssertion checks what of an assertion over body needs no
// registered key: the client data is a "webauthn.get" whose challenge is the
// body's, and the user was present. Its verdict is the same whether or not
// the credential is registered, so it may be told to anyone.
func CheckWebAuthnAssertion(s WebAuthnStamp, body []byte) error {
	_, err := s.decode(body)
	return err
}

func (s WebAuthnStamp) decode(body []byte) (webAuthnAssertion, error) {
	var a webAuthnAssertion
	var err error
	if a.authData, err = decodeB64URL("authenticatorData", s.AuthenticatorData); err != nil {
		return a, err
	}
	if a.clientData, err = decodeB64URL("clientDataJson", s.ClientDataJSON); err != nil {
		return a, err
	}
	if a.sig, err = decodeB64URL("signature", s.Signature); err != nil {
		return a, err
	}
	cd, err := parseClientData(a.clientData)
	if err != nil {
		return a, err
	}
	if cd.typ != "webauthn.get" {
		return a, fmt.Errorf("%w: clientDataJson type is %q; an assertion has type \"webauthn.get\"", ErrMalformedStamp, truncate(cd.typ))
	}
	if err := checkChallenge(cd.challenge, body); err != nil {
		return a, err
	}
	// rpIdHash (32) ‖ flags (1) ‖ signCount (4) ‖ …
	if len(a.authData) < 37 {
		return a, fmt.Errorf("%w: authenticatorData is %d bytes, shorter than the 37 required", ErrMalformedStamp, len(a.authData))
	}
	if a.authData[32]&0x01 == 0 {
		return a, ErrUserNotPresent
	}
	return a, nil
}

// VerifyWebAuthn checks a WebAuthn assertion over body against the registered
// authenticator's P-256 public key (compressed or uncompressed SEC1 hex):
// CheckWebAuthnAssertion's checks, then the signature over authenticatorData ‖
// SHA-256(clientDataJSON). Relying-party id and origin are checked apart, by
// CheckWebAuthnOrigin, against the organization's list. High-S signatures are
// accepted: authenticators do not normalise S.
func VerifyWebAuthn(s WebAuthnStamp, body []byte, publicKeyHex string) error {
	pubRaw, err := hex.DecodeString(publicKeyHex)
	if err != nil {
		return fmt.Errorf("%w: registered authenticator key is not hex", ErrBadPublicKey)
	}
	pub, err := parseP256Public(pubRaw, true)
	if err != nil {
		return fmt.Errorf("registered authenticator key: %w", err)
	}
	a, err := s.decode(body)
	if err != nil {
		return err
	}
	cdHash := sha256.Sum256(a.clientData)
	signed := sha256.Sum256(append(a.authData[:len(a.authData):len(a.authData)], cdHash[:]...))
	if !ecdsa.VerifyASN1(pub, signed[:], a.sig) {
		return fmt.Errorf("%w: WebAuthn P-256 signature over authenticatorData and the client data hash fails with the registered key", ErrBadSignature)
	}
	return nil
}

// SoftAuthenticator is a software WebAuthn authenticator (P-256), for tests
// and the demo. It is safe for concurrent use.
type SoftAuthenticator struct {
	credentialID string
	priv         *ecdsa.PrivateKey
	pubHex       string

	mu    sync.Mutex
	count uint32
}

// softRPID is the relying party the soft authenticator asserts for.
const softRPID = "vigil.local"

// SoftAuthenticatorOrigin is the origin the soft authenticator's assertions
// are made at: an organization listing origins in
// FEATURE_NAME_WEBAUTHN_ORIGINS must list it to accept them.
const SoftAuthenticatorOrigin = "https://" + softRPID

// NewSoftAuthenticator makes an authenticator with a fresh P-256 key.
// credentialID is the base64url (unpadded) id it puts in its stamps; empty
// means a random one.
func NewSoftAuthenticator(credentialID string) (*SoftAuthenticator, error) {
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("new soft authenticator: %w", err)
	}
	return newSoftAuthenticator(credentialID, priv)
}

// NewSoftAuthenticatorFromKey rebuilds an authenticator from its 32-byte
// P-256 private key hex (see PrivateKeyHex), so that a demo keeps its
// authenticator across runs.
func NewSoftAuthenticatorFromKey(credentialID, privateKeyHex string) (*SoftAuthenticator, error) {
	k, err := ParsePrivateHex(SchemeP256, privateKeyHex)
	if err != nil {
		return nil, fmt.Errorf("soft authenticator key: %w", err)
	}
	return newSoftAuthenticator(credentialID, k.p256)
}

func newSoftAuthenticator(credentialID string, priv *ecdsa.PrivateKey) (*SoftAuthenticator, error) {
	if credentialID == "" {
		id := make([]byte, 16)
		if _, err := rand.Read(id); err != nil {
			return nil, err
		}
		credentialID = base64.RawURLEncoding.EncodeToString(id)
	} else if _, err := decodeB64URL("credentialId", credentialID); err != nil {
		return nil, err
	}
	u, err := priv.PublicKey.Bytes()
	if err != nil {
		return nil, err
	}
	return &SoftAuthenticator{credentialID: credentialID, priv: priv, pubHex: hex.EncodeToString(compressP256(u))}, nil
}

// CredentialID is the authenticator's credential id (base64url, unpadded).
func (a *SoftAuthenticator) CredentialID() string { return a.credentialID }

// PublicKeyHex is the compressed P-256 public key to register.
func (a *SoftAuthenticator) PublicKeyHex() string { return a.pubHex }

// PrivateKeyHex is the 32-byte private key, for NewSoftAuthenticatorFromKey.
func (a *SoftAuthenticator) PrivateKeyHex() string {
	b, _ := a.priv.Bytes()
	return hex.EncodeToString(b)
}

// Stamp asserts over body and returns the X-Stamp-WebAuthn header and value.
func (a *SoftAuthenticator) Stamp(body []byte) (header, value string, err error) {
	a.mu.Lock()
	a.count++
	count := a.count
	a.mu.Unlock()

	clientData, err := json.Marshal(struct {
		Type      string `json:"type"`
		Challenge string `json:"challenge"`
		Origin    string `json:"origin"`
	}{"webauthn.get", base64.RawURLEncoding.EncodeToString(webAuthnChallenge(body)), SoftAuthenticatorOrigin})
	if err != nil {
		return "", "", fmt.Errorf("webauthn stamp: %w", err)
	}
	rp := sha256.Sum256([]byte(softRPID))
	authData := make([]byte, 37)
	copy(authData, rp[:])
	authData[32] = 0x05 // user present, user verified
	binary.BigEndian.PutUint32(authData[33:], count)

	cdHash := sha256.Sum256(clientData)
	signed := sha256.Sum256(append(authData[:37:37], cdHash[:]...))
	sig, err := ecdsa.SignASN1(rand.Reader, a.priv, signed[:])
	if err != nil {
		return "", "", fmt.Errorf("webauthn stamp: %w", err)
	}
	enc := base64.RawURLEncoding.EncodeToString
	v, err := json.Marshal(WebAuthnStamp{AuthenticatorData: enc(authData), ClientDataJSON: enc(clientData), CredentialID: a.credentialID, Signature: enc(sig)})
	if err != nil {
		return "", "", fmt.Errorf("webauthn stamp: %w", err)
	}
	return HeaderStampWebAuthn, string(v), nil
}
