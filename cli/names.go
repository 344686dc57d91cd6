package cli

import (
	"context"
	"encoding/json"
	"errors"
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

// The names below are read exact (undecoded by the client's sanitizing) and
// escaped once, by namedIDs: escaping what the client already escaped
// printed a real newline and a typed backslash-n alike.

// listUserNames asks for the organization's users' names, exact; on an
// error it says on stderr that ids are shown instead and returns no names.
func listUserNames(ctx context.Context, c proc, client *api.Client) map[string]string {
	users, err := exactUsers(ctx, client)
	if err != nil {
		fmt.Fprintf(c.stderr, "vigil: user names unknown, ids shown (%v)\n", err)
		return nil
	}
	return userNameMap(users)
}

// exactUsers lists the organization's users with their strings as the
// service sent them: names to compare with what the user typed, or to escape
// once when shown. Never nil when read (api.ReadUsers).
func exactUsers(ctx context.Context, client *api.Client) ([]api.User, error) {
	raw, err := client.QueryRaw(ctx, api.QueryListUsers, api.ListUsersRequest{OrganizationID: client.OrganizationID()})
	if err != nil {
		return nil, err
	}
	var r api.ListUsersResponse
	if err := decodeLookup(api.QueryListUsers, raw, &r); err != nil {
		return nil, err
	}
	return api.ReadUsers(r.Users), nil
}

// listTagNames asks for the organization's tag names, exact (its completed
// create_user_tag activities: the service has no tag query); on an error it
// says on stderr that ids are shown instead.
func listTagNames(ctx context.Context, c proc, client *api.Client) map[string]string {
	names, _ := readTagNames(ctx, c, client)
	return names
}

// readTagNames is listTagNames also saying whether every tag was read: only
// then is an id it lacks surely no tag of the organization.
func readTagNames(ctx context.Context, c proc, client *api.Client) (names map[string]string, complete bool) {
	names, err := api.UserTagNames(ctx, exactLister{client})
	switch {
	case errors.Is(err, api.ErrWalkCutShort):
		fmt.Fprintf(c.stderr, "vigil: only the %d newest tags' names were read; older tags show as ids\n", len(names))
	case err != nil:
		fmt.Fprintf(c.stderr, "vigil: tag names unknown, ids shown (%v)\n", err)
	}
	return names, err == nil
}

// exactLister lists activities with their strings as the service sent them.
type exactLister struct{ client *api.Client }

func (l exactLister) ListActivities(ctx context.Context, opts api.ListActivitiesOptions) ([]api.Activity, error) {
	raw, err := l.client.ListActivitiesRaw(ctx, opts)
	if err != nil {
		return nil, err
	}
	var r api.ListActivitiesResponse
	if err := decodeLookup(api.QueryListActivities, raw, &r); err != nil {
		return nil, err
	}
	return r.Activities, nil
}

// decodeLookup decodes raw, the reply of query/op, into v for the names and
// ids decided from it (a name shown beside an id, a name typed resolved to
// an id). A reply JSON readers can read two ways names no one: vigil would
// show or act on one reading while jq shows the other.
func decodeLookup(op string, raw []byte, v any) error {
	if err := json.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("query/%s: the reply is not the expected JSON: %w", op, err)
	}
	if err := api.CheckReplyJSON(raw, v); err != nil {
		return fmt.Errorf("query/%s: the reply can be read two ways (%s)", op, ambiguityText(err))
	}
	return nil
}

// namedIDs writes each id as its exact name escaped once (quoted when it
// needs escaping, or holds sep's separator, so that "ops,admin" is one tag),
// or as "name (id)" with withID or when another id has the same name, when
// names has it, else as the id; joined by sep.
func namedIDs(names map[string]string, ids []string, sep string, withID bool) string {
	out := make([]string, len(ids))
	for i, id := range ids {
		n, ok := names[id]
		switch {
		case !ok || n == "":
			out[i] = api.SanitizeID(id)
		case withID:
			out[i] = api.NameWithID(n, id)
		case strings.TrimSpace(sep) != "" && strings.Contains(n, strings.TrimSpace(sep)):
			out[i] = api.Quote(n)
		default:
			out[i] = api.NameText(n)
		}
		if !withID && n != "" && len(api.TagsNamed(names, n)) > 1 {
			// The service lets two ids share a name: by name alone they
			// cannot be told apart (a policy counts one id).
			out[i] += " (" + api.SanitizeID(id) + ")"
		}
	}
	return strings.Join(out, sep)
}

// warnSameNameTag warns on stderr, before submitting, that a tag named name
// already exists: the service allows a second one, which by name cannot be
// told from the first. A failed read only says the check was not made.
func warnSameNameTag(ctx context.Context, c proc, client *api.Client, name string) {
	names, err := api.UserTagNames(ctx, exactLister{client})
	if err != nil && !errors.Is(err, api.ErrWalkCutShort) {
		fmt.Fprintf(c.stderr, "vigil: could not check whether a tag named %s exists (%v)\n", api.Quote(name), err)
		return
	}
	if w := api.SameNameTagWarning(names, name); w != "" {
		fmt.Fprintf(c.stderr, "warning: %s\n", w)
	}
}
