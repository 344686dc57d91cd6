package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/vigil-console/vigil/api"
)

// Tables show users and tags by name, as the console does; ids stay in --json
// and in the id columns. A lookup that fails leaves the ids, with a note.

// userNameMap maps user ids to names, from users.
func userNameMap(users []api.User) map[string]string {
	names := make(map[string]string, len(users))
	for _, u := range users {
		names[u.UserID] = u.UserName
	}
	return names
}

// listUserNames asks for the organization's users' names; on an error it
// says on stderr that ids are shown instead and returns no names.
func listUserNames(ctx context.Context, c proc, client *api.Client) map[string]string {
	users, err := client.ListUsers(ctx)
	if err != nil {
		fmt.Fprintf(c.stderr, "vigil: user names unknown, ids shown (%v)\n", err)
		return nil
	}
	return userNameMap(users)
}

// listTagNames asks for the organization's tag names (its completed
// create_user_tag activities: the service has no tag query); on an error it
// says on stderr that ids are shown instead.
func listTagNames(ctx context.Context, c proc, client *api.Client) map[string]string {
	names, err := api.UserTagNames(ctx, client)
	if err != nil {
		fmt.Fprintf(c.stderr, "vigil: tag names unknown, ids shown (%v)\n", err)
	}
	return names
}

// namedIDs writes each id as its name (escaped as the console shows it), or
// as "name (id)" with withID, when names has it, else as the id; joined by sep.
func namedIDs(names map[string]string, ids []string, sep string, withID bool) string {
	out := make([]string, len(ids))
	for i, id := range ids {
		n, ok := names[id]
		switch {
		case !ok || n == "":
			out[i] = api.SanitizeID(id)
		case withID:
			out[i] = api.NameWithID(n, id)
		default:
			out[i] = api.NameText(n)
		}
	}
	return strings.Join(out, sep)
}
