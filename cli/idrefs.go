package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
)

// intentIDRefLines names the tag and user ids that the policy expressions
// of in (exact) refer to, one escaped line each, with a warning for an id
// that names neither, and for a tag's or user's name written where its id is
// expected: a consensus naming the "operator" tag must not read like one
// naming "ops". The names are read only when an expression may need them
// (policy.IntentNeedsIDNames); a lookup that fails says so on stderr (listTagNames), and its ids
// then show as unknown. users, when not nil, are the organization's users
// already read exact (exactUsers) for the same command, used rather than
// read again: one command names ids and checks vote keys from one list.
func intentIDRefLines(ctx context.Context, c proc, client *api.Client, in api.Intent, users []api.User) []string {
	if !policy.IntentNeedsIDNames(in) {
		return nil
	}
	names := userNameMap(users)
	if users == nil {
		names = listUserNames(ctx, c, client)
	}
	refs := policy.IntentIDRefs(in, listTagNames(ctx, c, client), names)
	lines := make([]string, len(refs))
	for i, r := range refs {
		lines[i] = r.String()
		if r.Warns() {
			lines[i] = "WARNING: " + lines[i]
		}
	}
	return lines
}

// idRefsBlock is intentIDRefLines under a heading, for below an activity or
// its intent; "" when there are none. users are as intentIDRefLines takes them.
func idRefsBlock(ctx context.Context, c proc, client *api.Client, in api.Intent, users []api.User) string {
	lines := intentIDRefLines(ctx, c, client, in, users)
	if len(lines) == 0 {
		return ""
	}
	return "the policy's expressions refer to:\n  " + strings.Join(lines, "\n  ") + "\n"
}

// warnUnknownIDs says on stderr, before a policy is sent, which ids its
// expressions hold that are neither a tag nor a user of the organization,
// and which tag or user names are written where an id is expected, as the
// console's create confirm does: a mistyped tag id, or a tag's name, makes a
// consensus nobody can meet, and the root quorum would be asked to vote it
// in. It only warns (the tag may be older than the tags read); the names are
// read only when an expression may need them (policy.NeedsIDNames).
func warnUnknownIDs(ctx context.Context, c proc, client *api.Client, exprs ...string) {
	if !policy.NeedsIDNames(exprs...) {
		return
	}
	tags, users := listTagNames(ctx, c, client), listUserNames(ctx, c, client)
	seen := map[string]bool{}
	for _, src := range exprs {
		for _, r := range policy.IDRefs(src, tags, users) {
			if r.Warns() && !seen[r.ID] {
				seen[r.ID] = true
				fmt.Fprintf(c.stderr, "warning: %s\n", r)
			}
		}
	}
}
