package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/vigil-console/vigil/api"
)

// An invitation's sender and tags, and the user and keys of a key deletion,
// are ids in the intent; the console's vote dialog names them and warns of
// one that is not the organization's (the service fails an invitation from
// no user of it only after the quorum has voted). These lines do the same
// under an intent the CLI prints.

// intentNamesBlock names the ids of a create_invitations or delete_api_keys
// intent, each kind under a heading, for below the intent; "" for other
// intents. users are the organization's users already read exact for the
// same command; when nil, readUsers says to read them here (only for such an
// intent), else the ids are shown unnamed. Tags are read only when an
// invitation holds one. A read that fails says so on stderr, and its ids are
// then shown unnamed, without a warning.
func intentNamesBlock(ctx context.Context, c proc, client *api.Client, in api.Intent, users []api.User, readUsers bool) string {
	invitations, deletion := in.CreateInvitationsIntent, in.DeleteAPIKeysIntent
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
		block += namesBlock("the invitations name:", invitationNameLines(invitations.Invitations, users, tags, complete))
	}
	if deletion != nil {
		block += namesBlock("the key deletion names:", keyDeletionNameLines(deletion, users))
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
// lacks is surely none), numbered as the intent's lines number them.
func invitationNameLines(invs []api.Invitation, users []api.User, tags map[string]string, complete bool) []string {
	names := userNameMap(users)
	var lines []string
	for i, inv := range invs {
		n := fmt.Sprintf("[%d]", i+1)
		switch name, ok := names[inv.SenderUserID]; {
		case ok:
			lines = append(lines, n+" sender: "+api.NameWithID(name, inv.SenderUserID))
		case users != nil:
			lines = append(lines, "WARNING: "+n+" sender "+api.SanitizeID(inv.SenderUserID)+
				" is not a user of this organization: the service fails the invitation only after the quorum has voted")
		default:
			lines = append(lines, n+" sender: "+api.SanitizeID(inv.SenderUserID)+" (not named: the organization's user list was not read)")
		}
		for _, id := range inv.ReceiverUserTags {
			switch name, ok := tags[id]; {
			case ok:
				lines = append(lines, n+" tag: "+api.NameWithID(name, id))
			case complete:
				lines = append(lines, "WARNING: "+n+" tag "+api.SanitizeID(id)+
					" is not a tag of this organization (no completed create_user_tag activity names it): if it should be one, check the id")
			default:
				lines = append(lines, n+" tag: "+api.SanitizeID(id)+" (not named: not among the tags read)")
			}
		}
	}
	return lines
}

// keyDeletionNameLines name the user whose keys p deletes, and each key
// among that user's keys, from users (nil: not read).
func keyDeletionNameLines(p *api.DeleteAPIKeysParams, users []api.User) []string {
	if users == nil {
		return nil // the ids are the intent's lines already
	}
	var owner *api.User
	for i := range users {
		if users[i].UserID == p.UserID {
			owner = &users[i]
		}
	}
	if owner == nil {
		return []string{"WARNING: user " + api.SanitizeID(p.UserID) + " is not a user of this organization: there are no keys of theirs to delete"}
	}
	lines := []string{"user: " + api.NameWithID(owner.UserName, owner.UserID)}
	for _, id := range p.APIKeyIDs {
		found := false
		for _, k := range owner.APIKeys {
			if k.APIKeyID == id {
				lines = append(lines, "API key: "+api.Quote(k.APIKeyName)+" ("+api.SanitizeID(id)+")")
				found = true
				break
			}
		}
		if !found {
			lines = append(lines, "WARNING: API key "+api.SanitizeID(id)+" is not among "+api.NameText(owner.UserName)+"'s API keys in the organization's user list")
		}
	}
	return lines
}
