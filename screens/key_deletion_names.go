package screens

import (
	"slices"

	"github.com/vigil-console/vigil/api"
)

// deleteKeysLines are the vote dialog's lines of a delete_api_keys: what
// it deletes, then each key by name and owner where the console's user
// list knows it, with its id, as the list's row names it; the voter must
// not have to match ids to know which key goes.
func deleteKeysLines(c *Common, p *api.DeleteAPIKeysParams) []string {
	return []string{
		field("delete", plural(len(p.APIKeyIDs), "API key")+" of "+usersText(c, []string{p.UserID})),
		field("keys", listText(p.APIKeyIDs, func(id string) string { return deletedKeyText(c, p.UserID, id) })),
	}
}

// deletedKeyText names the API key id that a deletion of owner's keys
// names: `"ci" (id …)`, with whose key it is when it is another user's
// than the deletion's; a key the console cannot name says why.
func deletedKeyText(c *Common, owner, id string) string {
	shown := api.SanitizeID(id)
	if !c.Org.Loaded {
		return shown + " (not named: the organization's users are not loaded)"
	}
	for _, u := range c.Org.Users {
		i := slices.IndexFunc(u.APIKeys, func(k api.APIKey) bool { return k.APIKeyID == id })
		if i < 0 {
			continue
		}
		text := api.Quote(u.APIKeys[i].APIKeyName) + " (id " + shown + ")"
		if u.UserID != owner {
			// Quoted with their ids, as the dialog's other names: two users
			// may share a name.
			text += ", a key of " + usersText(c, []string{u.UserID}) + ", not of " + usersText(c, []string{owner})
		}
		return text
	}
	return shown + " (not named: not among the API keys of the organization's users as last loaded)"
}
