package screens

import "github.com/vigil-console/vigil/api"

// keyOwnerText says whose key signed the verified vote v as far as the
// console can tell: the organization's user list it holds (Org.Users,
// from the same service) names the voter's API keys and passkeys.
// notTheirs is true when the list holds the voter and the key is not among
// their keys; with no list holding the voter the wording does not claim
// the user.
func keyOwnerText(c *Common, v *api.Vote) (text string, notTheirs bool) {
	who := memberQuoted(c, v)
	for i := range c.Org.Users {
		u := &c.Org.Users[i]
		if u.UserID != v.UserID {
			continue
		}
		for _, k := range u.APIKeys {
			if k.Credential.PublicKey != "" && k.Credential.PublicKey == v.PublicKey {
				return "by one of " + who + "'s API keys, as the organization's user list shows", false
			}
		}
		for _, k := range u.Authenticators {
			if k.Credential.PublicKey != "" && k.Credential.PublicKey == v.PublicKey {
				return "by one of " + who + "'s passkeys, as the organization's user list shows", false
			}
		}
		return "the key is not one of " + who + "'s API keys or passkeys in the organization's user list: this vote may not be theirs", true
	}
	return "by the key shown, not checked to be " + who + "'s (the console holds no user list with them)", false
}
