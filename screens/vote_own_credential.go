package screens

import (
	"strings"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
	"github.com/vigil-console/vigil/policy"
)

// ownVoteKey is the public key and scheme of the stamp the console would
// cast me's vote with: its own key (Common.OwnPublicKey), found among me's
// registered API keys on its curve (Common.OwnScheme: one user may hold the
// same bytes as a P-256 and a secp256k1 key), and the scheme the service
// requires of that key's registered type (keys.SchemeOfCredentialType). The
// service records that key's credential with the vote; a vote carrying them
// lets policy.VoteCredential find the same one. known is false when the key
// is not among me's API keys as last loaded (or not known at all), and when
// the console's scheme is not known and keys of two curves have its bytes.
func ownVoteKey(c *Common, me policy.Approver) (publicKey, scheme string, known bool) {
	if c.OwnPublicKey == "" {
		return "", "", false
	}
	for _, k := range me.Registered {
		if k.CredentialID != "" || !strings.EqualFold(k.PublicKey, c.OwnPublicKey) ||
			c.OwnScheme != "" && keys.CurveOfCredentialType(k.Type) != keys.CurveOfCredentialType(keys.CredentialTypeOfScheme(c.OwnScheme)) {
			continue
		}
		if known {
			return "", "", false
		}
		publicKey, scheme, known = k.PublicKey, keys.SchemeOfCredentialType(k.Type), true
	}
	return publicKey, scheme, known
}

// ownKeyUnknown is the prediction of an approval whose credential the
// console cannot name, when policies read which credential approved; "" when
// none does, and the approval's credential cannot change the outcome.
func ownKeyUnknown(policies []policy.Policy) string {
	d := policy.DoubtOfVotes(policies, nil, nil)
	if len(d.Readers) == 0 {
		return ""
	}
	return "cannot tell: the console does not know which of your credentials it signs with, and " +
		d.ReadersNamed() + " reads which credential approved"
}

// keyVotedAsOther is the prediction of a vote the service refuses
// (KEY_ALREADY_VOTED) because the console's key already cast a vote among
// votes as another member: an earlier service let one key be two users'
// credential, and one key votes once. "" when no such vote is there.
func keyVotedAsOther(c *Common, votes []api.Vote) string {
	if c.OwnPublicKey == "" {
		return ""
	}
	for i := range votes {
		v := &votes[i]
		// The own key read on its own curve (on the vote's when that is not
		// known): one key pair whichever form, API key or passkey, recorded
		// it, and not the same bytes on another curve.
		ownScheme := c.OwnScheme
		if ownScheme == "" {
			ownScheme = v.Scheme
		}
		if v.UserID == c.Org.UserID || v.PublicKey == "" ||
			keys.SigningKeyOf(v.Scheme, v.PublicKey) != keys.SigningKeyOf(ownScheme, c.OwnPublicKey) {
			continue
		}
		return "the service REFUSES it (KEY_ALREADY_VOTED): the key this console signs with already voted on it as " +
			memberQuoted(c, v) + ", and one key votes once; vote with a key pair of your own"
	}
	return ""
}
