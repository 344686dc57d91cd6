package screens

import "github.com/vigil-console/vigil/api"

// keyOwnerText says whose key signed the verified vote v as far as the
// console can tell: the organization's user list it holds (Org.Users,
// from the same service) names the voter's API keys and passkeys, which
// api.VoteKeyOwner compares canonically, as 'vigil activity get' does.
// The owner is named as the list names them, never by the vote's own
// label. notTheirs is true when the list holds the voter and the key is
// not among their keys; with no list holding the voter the wording does
// not claim the user.
func keyOwnerText(c *Common, v *api.Vote) (text string, notTheirs bool) {
	o := api.VoteKeyOwner(c.Org.Users, v)
	who := ""
	if o.User != nil {
		who = listedQuoted(o.User)
	}
	switch {
	case o.State == api.KeyListed && o.Passkey:
		return "by one of " + who + "'s passkeys, as the organization's user list shows", false
	case o.State == api.KeyListed:
		return "by one of " + who + "'s API keys, as the organization's user list shows", false
	case o.State == api.KeyNotListed:
		return "the key is not one of " + who + "'s API keys or passkeys in the organization's user list: this vote may not be theirs", true
	case o.Unreadable:
		return "by the key shown, not checked to be " + who + "'s: it is none of their keys vigil can read, and the organization's user list holds keys of theirs of a type vigil cannot read", false
	}
	id := "user " + api.SanitizeID(v.UserID)
	if c.Org.Users != nil {
		return "by the key shown, not checked to be " + id + "'s: the organization's user list the console holds does not hold this user id", false
	}
	return "by the key shown, not checked to be " + id + "'s (the console holds no user list with their keys)", false
}

// listedQuoted is a user of the list, quoted as memberQuoted quotes.
func listedQuoted(u *api.User) string {
	if u.UserName == "" {
		return "user " + api.SanitizeID(u.UserID)
	}
	return api.Quote(u.UserName)
}
