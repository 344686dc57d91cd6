package cli

import (
	"context"
	"fmt"

	"github.com/vigil-console/vigil/api"
)

// Whose key signed a verified vote: the organization's user list names
// each user's API keys and passkeys (api.VoteKeyOwner). It comes from the
// same service, so it tells a vote whose user id was swapped, not a
// service that lies about both; a key not listed may also be one deleted
// since the vote.

// keyOwnerText is what a verified vote's check says, printed after it,
// about whose key signed it among users (nil: the users were not read).
func keyOwnerText(v *api.Vote, users []api.User) string {
	if users == nil {
		return "by the key shown, not checked to be this voter's"
	}
	o := api.VoteKeyOwner(users, v)
	switch o.State {
	case api.KeyListed:
		who := userText(o.User)
		key := "API key"
		if o.Passkey {
			key = "passkey"
		}
		if o.KeyName != "" {
			key += " " + api.Quote(o.KeyName)
		}
		return "by " + who + "'s " + key + ", as the organization's user list shows"
	case api.KeyNotListed:
		return "WARNING: the key is not among " + userText(o.User) + "'s current API keys or passkeys in the organization's user list (or was since deleted): this vote may not be theirs"
	}
	if o.Unreadable {
		return "by the key shown, not checked to be " + userText(o.User) + "'s: it is none of their keys vigil can read, and the user list holds keys of theirs of a type vigil cannot read"
	}
	return "by the key shown, not checked to be this voter's: the organization's user list does not hold them"
}

// userText is u's name escaped, or its id when it has none.
func userText(u *api.User) string {
	if u.UserName == "" {
		return "user " + api.SanitizeID(u.UserID)
	}
	return api.NameText(u.UserName)
}

// keyOwnerJSON is a vote's keyOwner and keyOwnerReason in --json's
// voteChecks; readErr is why users were not read (nil: they were).
func keyOwnerJSON(c api.VoteCheck, v *api.Vote, users []api.User, readErr error) (state, reason string) {
	switch {
	case c.State != api.VoteVerified:
		return api.KeyUnchecked, "the vote's signature is not verified, so its key says nothing of who cast it"
	case readErr != nil:
		return api.KeyUnchecked, "the organization's users could not be read: " + api.Sanitize(readErr.Error())
	}
	o := api.VoteKeyOwner(users, v)
	switch {
	case o.State == api.KeyListed && o.Passkey:
		return o.State, "the key is one of the voter's passkeys in the organization's user list"
	case o.State == api.KeyListed:
		return o.State, "the key is one of the voter's API keys in the organization's user list"
	case o.State == api.KeyNotListed:
		return o.State, "the key is not among the voter's current API keys or passkeys in the organization's user list (or was since deleted): the vote may not be theirs"
	case o.Unreadable:
		return o.State, "the key is none of the voter's keys vigil can read, and the organization's user list holds keys of theirs of a credential type vigil cannot read"
	}
	return o.State, "the organization's user list does not hold the voter"
}

// anyVerified reports whether a check verified a vote: only then is whose
// key signed it worth reading the users for.
func anyVerified(checks []api.VoteCheck) bool {
	for _, c := range checks {
		if c.State == api.VoteVerified {
			return true
		}
	}
	return false
}

// activityUsers reads the organization's users once for activity get,
// when a needs them: to name the user an OIDC token in its intent is
// linked to (oidcUsers), or to say whose key signed its verified votes.
// Read exact and refused when the reply reads two ways (exactUsers). When
// they cannot be read, notes say what is not named or checked, and why,
// and a is marked usersUnread; the activity is still shown.
func activityUsers(ctx context.Context, client *api.Client, a *shownActivity) (users []api.User, notes []string) {
	oidc := a.exact.Intent.OauthIntent != nil || holdsOIDCToken(a.exact.Intent)
	verified := usersToCheck(*a.exact)
	if !oidc && !verified {
		return nil, nil
	}
	users, err := exactUsers(ctx, client)
	if err != nil {
		a.usersUnread = true
		if oidc {
			notes = append(notes, "the organization's users could not be listed, so the user the token's subject is linked to is not named")
		}
		if verified {
			notes = append(notes, fmt.Sprintf("the organization's users could not be read (%v), so verified votes are not checked to be signed by their voters' keys", err))
		}
	}
	return users, notes
}
