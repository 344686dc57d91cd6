package cli

import (
	"context"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
)

// Voters are named by their vote's userId from the organization's user
// list, when activity get read it (activityUsers): a vote's own "user"
// object is the service's label, which no signature covers, and a reply
// may call alice's vote bob's while her key says alice. The vote's own
// name is shown only for an id the list lacks, marked as the vote's word.

// unlistedNote marks a name that is the vote's own word, the list read
// not holding its id.
const unlistedNote = " (as the vote says; not in the organization's user list)"

// voterText names v's voter among users (nil: not read, the vote's own
// name is shown as before), escaped, with a warning when the vote's own
// user says otherwise than the list.
func voterText(v *api.Vote, users []api.User) string {
	if users == nil {
		if v.User.UserName == "" {
			return api.SanitizeID(v.UserID)
		}
		return api.NameText(v.User.UserName)
	}
	return castText(v, users, userText, "user "+api.SanitizeID(v.UserID))
}

// requesterText is activityRequester naming the requester among users
// (nil: not read) as voterText does, with their id.
func requesterText(a *api.Activity, users []api.User) string {
	if users == nil || policy.SubmitterOf(*a) == "" {
		return activityRequester(a)
	}
	v := &a.Votes[0]
	return castText(v, users, func(u *api.User) string { return api.NameWithID(u.UserName, v.UserID) }, api.SanitizeID(v.UserID))
}

// castText names v's caster from users (read): as listed names the user
// the list holds for v's userId, with a warning when the vote's own user
// says otherwise; else the vote's own name marked as its word, or bareID
// when it names none.
func castText(v *api.Vote, users []api.User, listed func(*api.User) string, bareID string) string {
	who := api.CasterOf(users, v)
	switch {
	case who.User != nil && who.Relabeled:
		return listed(who.User) + " (WARNING: " + api.RelabelText(v, who.User) + ")"
	case who.User != nil:
		return listed(who.User)
	case v.User.UserName != "":
		return api.NameWithID(v.User.UserName, v.UserID) + unlistedNote
	}
	return bareID + unlistedNote
}

// requesterUnlisted is the requester as their vote names them, marked as
// the vote's word, for when the organization's user list could not be
// read (the vote prompt, activity get).
func requesterUnlisted(a *api.Activity) string {
	return activityRequester(a) + " (as the vote says; the organization's user list could not be read)"
}

// requesterShown is the vote prompt's requester: named from the
// organization's user list (exact; returned for the prompt's other names,
// nil when not read), or, when it cannot be read, the requester's vote's
// own name marked as the vote's word.
func requesterShown(ctx context.Context, client *api.Client, a *api.Activity) (string, []api.User) {
	if policy.SubmitterOf(*a) == "" {
		return activityRequester(a), nil
	}
	users, err := exactUsers(ctx, client)
	if err != nil {
		return requesterUnlisted(a), nil
	}
	// exactUsers (api.ReadUsers) never answers nil for a read list, so a
	// requester absent from an empty one is marked.
	return requesterText(a, users), users
}
