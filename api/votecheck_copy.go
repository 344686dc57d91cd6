package api

import (
	"encoding/hex"

	"github.com/vigil-console/vigil/keys"
)

// signedKey is what makes two votes one signed vote: the same signature
// string, or the same message under the same key (canonical, so a key
// spelt in upper-case hex or uncompressed is the one key; and whatever
// the signature's spelling or its (r, n−s) twin).
type signedKey struct{ signature, key, message string }

// signedKeys are v's signedKeys.
func signedKeys(v *Vote) []signedKey {
	var ks []signedKey
	if v.Signature != "" {
		ks = append(ks, signedKey{signature: v.Signature})
	}
	if v.Message != "" {
		ks = append(ks, signedKey{key: canonicalVoteKey(v), message: v.Message})
	}
	return ks
}

// canonicalVoteKey is v's public key as keys.CanonicalPublicKey writes it
// for v's scheme (a P-256 one for a scheme it does not know, as passkeys
// are), or, unreadable so, as lower-case hex if it is hex, else as sent.
func canonicalVoteKey(v *Vote) string {
	cred := keys.CredentialAPIKeyP256
	switch v.Scheme {
	case keys.SchemeSecp256k1:
		cred = keys.CredentialAPIKeySecp256k1
	case keys.SchemeEd25519:
		cred = keys.CredentialAPIKeyEd25519
	}
	if k, err := keys.CanonicalPublicKey(cred, v.PublicKey); err == nil {
		return k
	}
	if b, err := hex.DecodeString(v.PublicKey); err == nil {
		return hex.EncodeToString(b)
	}
	return v.PublicKey
}

// copiedVotes is, for each vote of votes that shares a signedKey with a
// vote of another user, true: one signed vote shown as two.
func copiedVotes(votes []Vote) []bool {
	users := map[signedKey]map[string]bool{} // -> the userIds it is shown under
	for i := range votes {
		for _, k := range signedKeys(&votes[i]) {
			if users[k] == nil {
				users[k] = map[string]bool{}
			}
			users[k][votes[i].UserID] = true
		}
	}
	out := make([]bool, len(votes))
	for i := range votes {
		for _, k := range signedKeys(&votes[i]) {
			if len(users[k]) > 1 {
				out[i] = true
			}
		}
	}
	return out
}
