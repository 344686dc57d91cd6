package api

import "github.com/vigil-console/vigil/keys"

// States of a KeyOwner.
const (
	// KeyListed: the vote's key is one of its voter's API keys or passkeys
	// in the user list read.
	KeyListed = "listed"
	// KeyNotListed: the user list holds the voter, and the vote's key is
	// none of their keys: forged, or signed by a key since deleted.
	KeyNotListed = "not-listed"
	// KeyUnchecked: vigil cannot tell (no user list, or none holding the
	// voter, whose list may have been cut short).
	KeyUnchecked = "unchecked"
)

// KeyOwner is what VoteKeyOwner found. User is the voter as the list holds
// them (nil unless State is KeyListed or KeyNotListed, or Unreadable is
// set); with KeyListed, Passkey says whether the key is a passkey and
// KeyName names it, both as the list holds them (to be escaped when shown).
// Unreadable (with KeyUnchecked): the list holds the voter, none of their
// keys vigil can read is the vote's, and some key is of a credential type
// vigil cannot read, which may or may not be the vote's.
type KeyOwner struct {
	State      string
	User       *User
	Passkey    bool
	KeyName    string
	Unreadable bool
}

// VoteKeyOwner looks up v's public key among the API keys and passkeys of
// v's user in users (the organization's user list, from the same service
// as the vote: it tells a vote whose user id was swapped, not a service
// that lies about both). A key is its curve and its bytes together: the
// same bytes on another curve are another key. Keys compare canonically
// on their curve, as copied votes do (canonicalVoteKey): a key spelt
// uncompressed or in upper-case hex is the one key. It does no I/O.
func VoteKeyOwner(users []User, v *Vote) KeyOwner {
	for i := range users {
		u := &users[i]
		if u.UserID != v.UserID {
			continue
		}
		want, wantOK := curveKey(voteCurve(v.Scheme), v.PublicKey)
		unreadable := false
		match := func(c Credential) bool {
			if c.PublicKey == "" {
				return false
			}
			curve := credentialCurve(c.Type)
			if curve == "" {
				unreadable = true
				return false
			}
			got, ok := curveKey(curve, c.PublicKey)
			return ok && wantOK && got == want
		}
		for _, k := range u.APIKeys {
			if match(k.Credential) {
				return KeyOwner{State: KeyListed, User: u, KeyName: k.APIKeyName}
			}
		}
		for _, k := range u.Authenticators {
			if match(k.Credential) {
				return KeyOwner{State: KeyListed, User: u, Passkey: true, KeyName: k.AuthenticatorName}
			}
		}
		if unreadable || !wantOK {
			return KeyOwner{State: KeyUnchecked, User: u, Unreadable: unreadable}
		}
		return KeyOwner{State: KeyNotListed, User: u}
	}
	return KeyOwner{State: KeyUnchecked}
}

// Curves a key can be on, as VoteKeyOwner compares them.
const (
	curveP256      = "p256"
	curveSecp256k1 = "secp256k1"
	curveEd25519   = "ed25519"
)

// voteCurve is the curve of a vote's key by its scheme; "" for a scheme
// vigil does not know.
func voteCurve(scheme string) string {
	switch scheme {
	case keys.SchemeP256, keys.SchemeWebAuthn:
		return curveP256
	case keys.SchemeSecp256k1:
		return curveSecp256k1
	case keys.SchemeEd25519:
		return curveEd25519
	}
	return ""
}

// credentialCurve is the curve of a credential's key by its type (the
// service's enumeration); "" for a type vigil does not know.
func credentialCurve(typ string) string {
	switch typ {
	case keys.CredentialAPIKeySecp256k1:
		return curveSecp256k1
	case keys.CredentialAPIKeyEd25519:
		return curveEd25519
	case keys.CredentialAPIKeyP256, keys.CredentialWebAuthnAuthenticator, keys.CredentialRecoverUserKeyP256,
		keys.CredentialEmailAuthKeyP256, keys.CredentialOtpAuthKeyP256, keys.CredentialReadWriteSessionP256,
		keys.CredentialOauthKeyP256, keys.CredentialLogin:
		return curveP256
	}
	return ""
}

// curveKey is the key as keys.CanonicalPublicKey writes it on curve, with
// the curve in it; false when it is no key on that curve (or the curve is
// unknown), which never matches: an unparsable key is not compared by its
// bytes.
func curveKey(curve, publicKey string) (string, bool) {
	var cred string
	switch curve {
	case curveP256:
		cred = keys.CredentialAPIKeyP256
	case curveSecp256k1:
		cred = keys.CredentialAPIKeySecp256k1
	case curveEd25519:
		cred = keys.CredentialAPIKeyEd25519
	default:
		return "", false
	}
	k, err := keys.CanonicalPublicKey(cred, publicKey)
	if err != nil {
		return "", false
	}
	return curve + ":" + k, true
}
