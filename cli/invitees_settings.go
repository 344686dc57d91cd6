package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/vigil-console/vigil/api"
)

// invitation create --per-invitee 'EMAIL: access=…, tags=…, sender=…' gives
// some invitees their own access type, tags or sender, read as the console's
// invitation form reads its "per invitee" field (api.ReadInviteeEntries).

const perInviteeHint = "write each as --per-invitee 'EMAIL: access=api, tags=NAME, NAME, sender=USER' (settings left out keep --access, --tag and --sender; tags= gives none)"

// readPerInvitee reads the --per-invitee values, refusing (exit 2, before
// anything is sent) an entry that is malformed or names no invitee.
func readPerInvitee(values []string, invs []api.Invitation) ([]api.InviteeEntry, error) {
	// One list: an e-mail in two --per-invitee is given twice, as within one.
	entries := api.ReadInviteeEntries(strings.Join(values, ";"))
	if p := api.InviteeProblems(entries); p != "" {
		return nil, usagef("invitation create: --per-invitee %s; %s", p, perInviteeHint)
	}
	if unknown := api.ApplyInviteeEntries(append([]api.Invitation(nil), invs...), entries); len(unknown) > 0 {
		return nil, usagef("invitation create: --per-invitee %s", api.UnknownInviteesProblem(unknown, "give it as --name NAME --email ADDRESS too, or correct the e-mail"))
	}
	return entries, nil
}

// resolvePerInvitee turns each entry's tags and sender into ids, as --tag
// and --sender are (api.ResolveUserTag, api.ResolveByIDOrName against the
// exact names), reading the tags and the users once. Every entry's problems
// are said at once, each naming its e-mail.
func resolvePerInvitee(ctx context.Context, c proc, client *api.Client, entries []api.InviteeEntry) error {
	var tagNames map[string]string
	complete := true
	var userNames map[string]string
	for i := range entries {
		e := &entries[i]
		if len(e.Tags) > 0 && tagNames == nil {
			names, err := api.UserTagNames(ctx, exactLister{client})
			if err != nil && !errors.Is(err, api.ErrWalkCutShort) {
				return fmt.Errorf("invitation create: check --per-invitee tags against the organization's tags: %w", err)
			}
			tagNames, complete = names, err == nil
		}
		if e.Sender != "" && userNames == nil {
			users, err := exactUsers(ctx, client)
			if err != nil {
				return fmt.Errorf("invitation create: check --per-invitee sender against the users: %w", err)
			}
			userNames = userNameMap(users)
		}
		ids := []string{}
		for _, t := range e.Tags {
			id, warning, err := api.ResolveUserTag(tagNames, complete, t)
			if err != nil {
				e.Problems = append(e.Problems, "tags= "+err.Error()+" (tags are known from completed create_user_tag activities: 'vigil activity list --type create_user_tag')")
				continue
			}
			if warning != "" {
				fmt.Fprintf(c.stderr, "vigil: %s: %s\n", api.Quote(e.Email), warning)
			}
			ids = append(ids, id)
		}
		e.Tags = ids
		if e.Sender != "" {
			id, err := api.ResolveByIDOrName("user", userNames, e.Sender)
			if err != nil {
				e.Problems = append(e.Problems, "sender= "+err.Error()+" (see 'vigil user list')")
			}
			e.Sender = id
		}
	}
	if p := api.InviteeProblems(entries); p != "" {
		return usagef("invitation create: --per-invitee %s", p)
	}
	return nil
}

// accessForEach refuses, without --access, an invitee whose --per-invitee
// gives no access= either: there is no access type to send for it.
func accessForEach(invs []api.Invitation) error {
	var missing []string
	for _, inv := range invs {
		if inv.AccessType == "" {
			missing = append(missing, api.Quote(cmp.Or(inv.ReceiverUserEmail, inv.ReceiverUserName)))
		}
	}
	if len(missing) > 0 {
		return usagef("invitation create: %s has no access type: give --access web|api|all for every invitee, or access=… in its --per-invitee", strings.Join(missing, ", "))
	}
	return nil
}
