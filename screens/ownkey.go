package screens

import (
	"slices"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
)

// ownKey is what the console knows of the API key it signs with.
type ownKey struct {
	known bool   // the signed-in user's keys loaded and the console knows its public key
	id    string // the key's id; "" when none of the user's keys is it
	// proves is the MFA method type a vote signed with it proves ("" when
	// not known): an OAuth login's key proves OAUTH, not API_KEY.
	proves string
}

// signingKey is k as the policy package's voter rules take it.
func (k ownKey) signingKey() policy.SigningKey {
	return policy.SigningKey{Known: k.known, ID: k.id, Proves: k.proves}
}

// ownAPIKey finds the API key the console signs with among the signed-in
// user's keys, by its public key, as the organization's load (loadOrg, a
// command: whoami and list_users) last read them. That load runs at sign-in
// and again after every completion the console sees, a key created or
// deleted among them. Not known when the users did not load or the console
// does not know its public key: then a pin can only be said to maybe be it.
func ownAPIKey(c *Common) ownKey {
	if c.OwnPublicKey == "" || !c.Org.Loaded || c.Org.UserID == "" {
		return ownKey{}
	}
	i := slices.IndexFunc(c.Org.Users, func(u api.User) bool { return u.UserID == c.Org.UserID })
	if i < 0 {
		return ownKey{}
	}
	for _, k := range c.Org.Users[i].APIKeys {
		if k.HasPublicKey(c.OwnPublicKey) {
			return ownKey{known: true, id: k.APIKeyID, proves: api.AuthenticationTypeOf(k.Credential.Type)}
		}
	}
	return ownKey{known: true}
}

// is reports whether id is the console's key; sure is false when that
// cannot be told.
func (k ownKey) is(id string) (is, sure bool) {
	if !k.known {
		return false, false
	}
	return id != "" && id == k.id, true
}

// consoleCredentials is credentialsOf(u, full), knowing, when u is the
// signed-in user, which of u's API keys this console signs with: a pin to
// one then says whether it is this console's key.
func consoleCredentials(c *Common, u *api.User, full bool) credentials {
	creds := credentialsOf(u, full)
	if u != nil && c.Org.UserID != "" && u.UserID == c.Org.UserID {
		creds.own = ownAPIKey(c)
	}
	return creds
}
