// Package keys makes, stores and loads stamping keys, stamps request bodies
// (X-Stamp, DESIGN.md §3) and verifies stamps.
package keys

// Stamp headers.
const (
	HeaderStamp         = "X-Stamp"
	HeaderStampWebAuthn = "X-Stamp-WebAuthn"
)

// Signature schemes of an X-Stamp, and the scheme a vote records for a passkey
// (X-Stamp-WebAuthn) signature.
const (
	SchemeP256      = "SIGNATURE_SCHEME_TK_API_P256"
	SchemeSecp256k1 = "SIGNATURE_SCHEME_TK_API_SECP256K1"
	SchemeEd25519   = "SIGNATURE_SCHEME_TK_API_ED25519"
	SchemeWebAuthn  = "SIGNATURE_SCHEME_WEBAUTHN"
)

// Credential types of the service (SPEC.md's enumeration). keys owns them; api
// re-exports them as api.Credential*.
const (
	CredentialWebAuthnAuthenticator = "CREDENTIAL_TYPE_WEBAUTHN_AUTHENTICATOR"
	CredentialAPIKeyP256            = "CREDENTIAL_TYPE_API_KEY_P256"
	CredentialRecoverUserKeyP256    = "CREDENTIAL_TYPE_RECOVER_USER_KEY_P256"
	CredentialAPIKeySecp256k1       = "CREDENTIAL_TYPE_API_KEY_SECP256K1"
	CredentialEmailAuthKeyP256      = "CREDENTIAL_TYPE_EMAIL_AUTH_KEY_P256"
	CredentialAPIKeyEd25519         = "CREDENTIAL_TYPE_API_KEY_ED25519"
	CredentialOtpAuthKeyP256        = "CREDENTIAL_TYPE_OTP_AUTH_KEY_P256"
	CredentialReadWriteSessionP256  = "CREDENTIAL_TYPE_READ_WRITE_SESSION_KEY_P256"
	CredentialOauthKeyP256          = "CREDENTIAL_TYPE_OAUTH_KEY_P256"
	CredentialLogin                 = "CREDENTIAL_TYPE_LOGIN"
)

// CredentialTypeOfScheme is the credential type behind a signature of this
// scheme: the API key type of an X-Stamp scheme, the authenticator type of
// SchemeWebAuthn. Other P-256 credentials (session, e-mail, OTP keys) stamp
// with SchemeP256 too; their type is on the key's record, not in the stamp.
func CredentialTypeOfScheme(scheme string) string {
	switch scheme {
	case SchemeSecp256k1:
		return CredentialAPIKeySecp256k1
	case SchemeEd25519:
		return CredentialAPIKeyEd25519
	case SchemeWebAuthn:
		return CredentialWebAuthnAuthenticator
	}
	return CredentialAPIKeyP256
}

// SchemeOfCredentialType is the X-Stamp scheme a key registered with this
// credential type signs with: secp256k1 and Ed25519 API keys their own,
// every other type (session, e-mail, OTP, OAuth keys among them) P-256.
func SchemeOfCredentialType(credentialType string) string {
	switch credentialType {
	case CredentialAPIKeySecp256k1:
		return SchemeSecp256k1
	case CredentialAPIKeyEd25519:
		return SchemeEd25519
	case CredentialWebAuthnAuthenticator:
		return SchemeWebAuthn
	}
	return SchemeP256
}

// Stamper stamps a request body: it returns the header to send and its value,
// computed over exactly these bytes.
type Stamper interface {
	Stamp(body []byte) (header, value string, err error)
}
