package screens

import (
	"slices"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
)

// ownAPIKey finds the API key the console signs with among the signed-in
// user's keys, by its public key and curve, as the organization's load (loadOrg, a
// command: whoami and list_users) last read them. That load runs at sign-in
// and again after every completion the console sees, a key created or
// deleted among them. Not known when the users did not load or the console
// does not know its public key: then a pin can only be said to maybe be it.
func ownAPIKey(c *Common) policy.SigningKey {
	if !c.Org.Loaded || c.Org.UserID == "" {
		return policy.SigningKey{}
	}
	i := slices.IndexFunc(c.Org.Users, func(u api.User) bool { return u.UserID == c.Org.UserID })
	if i < 0 {
		return policy.SigningKey{}
	}
	return policy.SigningKeyOf(&c.Org.Users[i], c.OwnScheme, c.OwnPublicKey)
}

// consoleCredentials is credentialsOf(u, full), with u's API keys expired
// at the console's clock, and knowing, when u is the
// signed-in user, which of u's API keys this console signs with: a pin to
// one then says whether it is this console's key.
func consoleCredentials(c *Common, u *api.User, full bool) credentials {
	creds := credentialsOf(u, full)
	if u != nil && c.Now != nil { // a bare Common (a test's) has no clock
		creds.expired = api.ExpiredAPIKeys(c.Now(), *u)
	}
	if u != nil && c.Org.UserID != "" && u.UserID == c.Org.UserID {
		creds.own = ownAPIKey(c)
	}
	return creds
}
