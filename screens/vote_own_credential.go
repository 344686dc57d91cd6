package screens

import (
	"strings"

	"github.com/vigil-console/vigil/keys"
	"github.com/vigil-console/vigil/policy"
)

// ownVoteKey is the public key and scheme of the stamp the console would
// cast me's vote with: its own key (Common.OwnPublicKey), found among me's
// registered API keys, and the scheme the service requires of that key's
// registered type (keys.SchemeOfCredentialType). The service records that
// key's credential with the vote; a vote carrying them lets
// policy.VoteCredential find the same one. known is false when the key is
// not among me's API keys as last loaded (or not known at all).
func ownVoteKey(c *Common, me policy.Approver) (publicKey, scheme string, known bool) {
	if c.OwnPublicKey == "" {
		return "", "", false
	}
	for _, k := range me.Registered {
		if k.CredentialID == "" && strings.EqualFold(k.PublicKey, c.OwnPublicKey) {
			return k.PublicKey, keys.SchemeOfCredentialType(k.Type), true
		}
	}
	return "", "", false
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
