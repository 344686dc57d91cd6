package api

import (
	"context"
	"fmt"
	"sort"
	"strings"
)

// MaxUserTagPages bounds the pages of create_user_tag activities read for tag
// names (100 a page).
const MaxUserTagPages = 10

// UserTagNames maps the organization's user tag ids to their names, read from
// its completed create_user_tag activities, newest first (the service has no
// query for tags). What was read before an error is returned with it.
func UserTagNames(ctx context.Context, l ActivityLister) (map[string]string, error) {
	names := map[string]string{}
	opts := ListActivitiesOptions{Types: []string{TypeCreateUserTag}, Statuses: []string{StatusCompleted}}
	err := WalkActivities(ctx, l, opts, MaxUserTagPages, func(a Activity) {
		in, res := a.Intent.CreateUserTagIntent, a.Result.CreateUserTagResult
		if in == nil || res == nil || res.UserTagID == "" {
			return
		}
		if _, seen := names[res.UserTagID]; !seen {
			names[res.UserTagID] = in.UserTagName
		}
	})
	if err != nil {
		return names, fmt.Errorf("list create_user_tag activities: %w", err)
	}
	return names, nil
}

// ResolveByIDOrName turns value into the id of one of known (id -> name): a
// known id as it is, or the name of exactly one of them, so that a person can
// type the name they read. kind ("user tag", "user") words the errors, which
// say what was wrong and what to give instead.
func ResolveByIDOrName(kind string, known map[string]string, value string) (string, error) {
	value = strings.TrimSpace(value)
	if _, ok := known[value]; ok {
		return value, nil
	}
	var ids []string
	for id, n := range known {
		if n == value {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	switch {
	case len(ids) == 1:
		return ids[0], nil
	case len(ids) > 1:
		shown := make([]string, len(ids))
		for i, id := range ids {
			shown[i] = SanitizeID(id)
		}
		return "", fmt.Errorf("%s is the name of %d %ss (ids %s); give the id of the one you mean", Quote(value), len(ids), kind, strings.Join(shown, ", "))
	case len(known) == 0:
		return "", fmt.Errorf("%s: no %s is known to check it against; give the id of an existing %s", Quote(value), kind, kind)
	}
	return "", fmt.Errorf("%s is neither the id nor the name of a %s of this organization (%s)", Quote(value), kind, knownText(known))
}

// ResolveUserTag turns value, a user tag's id or name, into its id against
// names as UserTagNames read them. complete is false when the read stopped
// short (ErrWalkCutShort, or an error part-way), so that older tags may
// exist unread: then an id not among those read is taken as given (an older
// tag may have it; the service takes any id), a name not among them is
// refused (give the id), and a name found among them comes with a warning,
// since an older tag of the same name would have made it ambiguous. The CLI
// and the console resolve tags with it, so they agree.
func ResolveUserTag(names map[string]string, complete bool, value string) (id, warning string, err error) {
	value = strings.TrimSpace(value)
	id, err = ResolveByIDOrName("user tag", names, value)
	switch {
	case complete:
		return id, "", err
	case err == nil && id != value:
		return id, fmt.Sprintf("user tag %s resolved among the %d newest tags read (%s); an older tag of the same name was not looked for: give the id to be sure", Quote(value), len(names), SanitizeID(id)), nil
	case err == nil:
		return id, "", nil
	case UUIDShaped(value):
		return value, fmt.Sprintf("user tag %s is not among the %d newest tags read; it is sent as the id given", SanitizeID(value), len(names)), nil
	}
	return "", "", fmt.Errorf("%s is not among the %d newest user tags read (the organization has more than are read); give the tag's id", Quote(value), len(names))
}

// UUIDShaped reports whether s is written as a UUID (8-4-4-4-12 hex digits),
// as the service's ids are.
func UUIDShaped(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i, r := range s {
		switch i {
		case 8, 13, 18, 23:
			if r != '-' {
				return false
			}
		default:
			if !strings.ContainsRune("0123456789abcdefABCDEF", r) {
				return false
			}
		}
	}
	return true
}

// knownText lists up to five of known as `"name" (id …)`, by name.
func knownText(known map[string]string) string {
	ids := make([]string, 0, len(known))
	for id := range known {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool {
		if known[ids[i]] != known[ids[j]] {
			return known[ids[i]] < known[ids[j]]
		}
		return ids[i] < ids[j]
	})
	const most = 5
	var out []string
	for i, id := range ids {
		if i == most {
			out = append(out, fmt.Sprintf("and %d more", len(ids)-most))
			break
		}
		out = append(out, Quote(known[id])+" (id "+SanitizeID(id)+")")
	}
	return "known: " + strings.Join(out, ", ")
}

// TagsNamed lists, sorted, the ids in names (id -> name) of the tags named
// exactly name. The service allows two tags of one name; more than one id
// means the name alone cannot tell them apart.
func TagsNamed(names map[string]string, name string) []string {
	var ids []string
	for id, n := range names {
		if n == name {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	return ids
}

// SameNameTagWarning warns that a new tag named name would share it with
// the tags names already holds, or is "" when none does.
func SameNameTagWarning(names map[string]string, name string) string {
	ids := TagsNamed(names, name)
	if len(ids) == 0 {
		return ""
	}
	shown := make([]string, len(ids))
	for i, id := range ids {
		shown[i] = SanitizeID(id)
	}
	return fmt.Sprintf("the organization already has a user tag named %s (id %s): the service allows a second one, "+
		"but by name the two cannot be told apart (policies and --tag need the id); pick another name unless that is meant",
		Quote(name), strings.Join(shown, ", "))
}
