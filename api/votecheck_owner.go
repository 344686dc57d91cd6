package api

import (
	"encoding/hex"

	"github.com/vigil-console/vigil/keys"
)

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
// them (nil unless State is KeyListed or KeyNotListed); with KeyListed,
// Passkey says whether the key is a passkey and KeyName names it, both as
// the list holds them (to be escaped when shown).
type KeyOwner struct {
	State   string
	User    *User
	Passkey bool
	KeyName string
}

// VoteKeyOwner looks up v's public key among the API keys and passkeys of
// v's user in users (the organization's user list, from the same service
// as the vote: it tells a vote whose user id was swapped, not a service
// that lies about both). Keys compare canonically, as copied votes do
// (canonicalVoteKey): a key spelt uncompressed or in upper-case hex is the
// one key. It does no I/O.
func VoteKeyOwner(users []User, v *Vote) KeyOwner {
	for i := range users {
		u := &users[i]
		if u.UserID != v.UserID {
			continue
		}
		want := canonicalVoteKey(v)
		for _, k := range u.APIKeys {
			if k.Credential.PublicKey != "" && canonicalCredentialKey(k.Credential) == want {
				return KeyOwner{State: KeyListed, User: u, KeyName: k.APIKeyName}
			}
		}
		for _, k := range u.Authenticators {
			if k.Credential.PublicKey != "" && canonicalCredentialKey(k.Credential) == want {
				return KeyOwner{State: KeyListed, User: u, Passkey: true, KeyName: k.AuthenticatorName}
			}
		}
		return KeyOwner{State: KeyNotListed, User: u}
	}
	return KeyOwner{State: KeyUnchecked}
}

// canonicalCredentialKey is c's public key as keys.CanonicalPublicKey
// writes it for c's type, or, unreadable so, as canonicalVoteKey falls
// back: lower-case hex if it is hex, else as sent.
func canonicalCredentialKey(c Credential) string {
	if k, err := keys.CanonicalPublicKey(c.Type, c.PublicKey); err == nil {
		return k
	}
	if b, err := hex.DecodeString(c.PublicKey); err == nil {
		return hex.EncodeToString(b)
	}
	return c.PublicKey
}
