package cli

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/vigil-console/vigil/api"
)

// An invitation's sender and tags, and the user and keys of a key deletion,
// are ids in the intent; the console's vote dialog names them and warns of
// one that is not the organization's (the service fails an invitation from
// no user of it only after the quorum has voted). These lines do the same
// under an intent the CLI prints. A warning says what the service will do,
// so only an activity not yet decided gets one: a decided one's ids are
// named as far as the user list still lists them (a completed key
// deletion's keys are gone from it because it ran).

// intentNamesBlock names the ids of a create_invitations or delete_api_keys
// intent of a, each kind under a heading, for below the intent; "" for
// other intents. users are the organization's users already read exact for
// the same command; when nil, readUsers says to read them here (only for
// such an intent), else the ids are shown unnamed. Tags are read only when
// an invitation holds one. A read that fails says so on stderr, and its ids
// are then shown unnamed, without a warning.
func intentNamesBlock(ctx context.Context, c proc, client *api.Client, a *api.Activity, users []api.User, readUsers bool) string {
	invitations, deletion := a.Intent.CreateInvitationsIntent, a.Intent.DeleteAPIKeysIntent
	if invitations == nil && deletion == nil {
		return ""
	}
	if users == nil && readUsers {
		read, err := exactUsers(ctx, client)
		if err != nil {
			fmt.Fprintf(c.stderr, "vigil: user names unknown, ids shown (%v)\n", err)
		} else {
			users = orEmptyUsers(read)
		}
	}
	var block string
	if invitations != nil {
		var tags map[string]string
		complete := false
		if holdsTags(invitations.Invitations) {
			tags, complete = readTagNames(ctx, c, client)
		}
		block += namesBlock("the invitations name:", invitationNameLines(invitations.Invitations, a.Status, users, tags, complete))
	}
	if deletion != nil {
		block += namesBlock("the key deletion names:", keyDeletionNameLines(deletion, a.Status, users))
	}
	return block
}

func namesBlock(heading string, lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	return heading + "\n  " + strings.Join(lines, "\n  ") + "\n"
}

// orEmptyUsers is users read, never nil: nil means not read.
func orEmptyUsers(users []api.User) []api.User {
	if users == nil {
		return []api.User{}
	}
	return users
}

func holdsTags(invs []api.Invitation) bool {
	for _, inv := range invs {
		if len(inv.ReceiverUserTags) > 0 {
			return true
		}
	}
	return false
}

// invitationNameLines name each invitation's sender among users (nil: not
// read) and its tags among tags (complete: every tag was read, so an id it
// lacks is surely none), numbered as the intent's lines number them; status
// is the activity's: a decided one's missing ids are no warning.
func invitationNameLines(invs []api.Invitation, status string, users []api.User, tags map[string]string, complete bool) []string {
	names := userNameMap(users)
	decided := api.IsTerminal(status)
	var lines []string
	for i, inv := range invs {
		n := fmt.Sprintf("[%d]", i+1)
		switch name, ok := names[inv.SenderUserID]; {
		case ok:
			lines = append(lines, n+" sender: "+api.QuotedNameWithID(name, inv.SenderUserID))
		case users != nil && decided:
			lines = append(lines, n+" sender: "+api.SanitizeID(inv.SenderUserID)+" (not in the organization's user list now)")
		case users != nil:
			lines = append(lines, "WARNING: "+n+" sender "+api.SanitizeID(inv.SenderUserID)+
				" is not a user of this organization: the service fails the invitation only after the quorum has voted")
		default:
			lines = append(lines, n+" sender: "+api.SanitizeID(inv.SenderUserID)+" (not named: the organization's user list was not read)")
		}
		for _, id := range inv.ReceiverUserTags {
			switch name, ok := tags[id]; {
			case ok:
				lines = append(lines, n+" tag: "+api.QuotedNameWithID(name, id))
			case complete && !decided:
				lines = append(lines, "WARNING: "+n+" tag "+api.SanitizeID(id)+
					" is not a tag of this organization (no completed create_user_tag activity names it): if it should be one, check the id")
			case complete:
				lines = append(lines, n+" tag: "+api.SanitizeID(id)+" (not a tag of this organization now)")
			default:
				lines = append(lines, n+" tag: "+api.SanitizeID(id)+" (not named: not among the tags read)")
			}
		}
	}
	return lines
}

// keyDeletionNameLines name the user whose keys p deletes, and each key
// among that user's keys, from users (nil: not read); status is the
// activity's. Once it completed, the keys are gone from the list because
// it deleted them; once otherwise decided, an id missing warns of nothing.
func keyDeletionNameLines(p *api.DeleteAPIKeysParams, status string, users []api.User) []string {
	if users == nil {
		return []string{"user " + api.SanitizeID(p.UserID) + " and its keys: not named: the organization's user list was not read"}
	}
	decided := api.IsTerminal(status)
	var owner *api.User
	for i := range users {
		if users[i].UserID == p.UserID {
			owner = &users[i]
		}
	}
	var lines []string
	switch {
	case owner != nil:
		lines = append(lines, "user: "+api.QuotedNameWithID(owner.UserName, owner.UserID))
	case decided:
		lines = append(lines, "user: "+api.SanitizeID(p.UserID)+" (not in the organization's user list now)")
	default:
		return []string{"WARNING: user " + api.SanitizeID(p.UserID) + " is not a user of this organization: there are no keys of theirs to delete"}
	}
	for _, id := range p.APIKeyIDs {
		if owner != nil {
			if i := slices.IndexFunc(owner.APIKeys, func(k api.APIKey) bool { return k.APIKeyID == id }); i >= 0 {
				lines = append(lines, "API key: "+api.Quote(owner.APIKeys[i].APIKeyName)+" ("+api.SanitizeID(id)+")")
				continue
			}
		}
		switch {
		case status == api.StatusCompleted:
			lines = append(lines, "API key: "+api.SanitizeID(id)+" (deleted by this activity)")
		case decided:
			lines = append(lines, "API key: "+api.SanitizeID(id)+" (not in the organization's user list now)")
		default:
			lines = append(lines, "WARNING: API key "+api.SanitizeID(id)+" is not among "+api.Quote(owner.UserName)+"'s API keys in the organization's user list")
		}
	}
	return lines
}
