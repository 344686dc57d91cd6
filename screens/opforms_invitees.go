package screens

import (
	"errors"
	"strings"

	"github.com/vigil-console/vigil/api"
)

// The invitation form's access type, tags and sender apply to every invitee;
// its "per invitee" field overrides them for some, as SPEC.md's
// create_invitations takes all three per invitation. Entries are separated by
// ";" (or line breaks in a paste), each "EMAIL: access=api, tags=a, b,
// sender=alice"; a setting left out keeps the form's, "tags=" gives none.

const (
	perInviteeKey = "perInvitee"
	// perInviteeCharLimit: an entry for every invitee, each with a full tag
	// list, is more than one request carries; the field takes as much as a
	// request does, and the form's size check says when the whole is over.
	perInviteeCharLimit = api.MaxRequestBodyBytes
)

// perInviteeLine makes a pasted list of entries, one a line, the field's one
// line.
func perInviteeLine(pasted string) string {
	var entries []string
	for _, line := range strings.FieldsFunc(pasted, func(r rune) bool { return r == '\n' || r == '\r' }) {
		if line = strings.TrimSpace(strings.ReplaceAll(line, "\t", " ")); line != "" {
			entries = append(entries, strings.TrimSuffix(line, ";"))
		}
	}
	return strings.Join(entries, "; ")
}

// inviteeOverrides reads the per invitee field (api.ReadInviteeEntries),
// resolving each entry's tags and sender as the form's own (invitationRefs).
// Every entry's problems are said at once, each naming the entry's e-mail,
// in one error on the field.
func inviteeOverrides(c *Common, s string) (overrides []api.InviteeEntry, warnings []string, err error) {
	entries := api.ReadInviteeEntries(s)
	for i := range entries {
		e := &entries[i]
		ids, id, w, err := invitationRefs(c, map[string]string{"receiverUserTags": strings.Join(e.Tags, ", "), "senderUserId": e.Sender})
		e.Problems = append(e.Problems, problemsOf(err)...)
		e.Tags, e.Sender = ids, id
		if len(e.Problems) == 0 {
			overrides = append(overrides, *e)
			warnings = append(warnings, w...)
		}
	}
	if p := api.InviteeProblems(entries); p != "" {
		return nil, nil, &api.ValidationError{Field: perInviteeKey, Problem: p}
	}
	return overrides, warnings, nil
}

// problemsOf are the problems of invitationRefs' (joined) error, without the
// field each was meant for.
func problemsOf(err error) []string {
	if err == nil {
		return nil
	}
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		var out []string
		for _, e := range joined.Unwrap() {
			out = append(out, problemsOf(e)...)
		}
		return out
	}
	var ve *api.ValidationError
	if errors.As(err, &ve) {
		return []string{ve.Problem}
	}
	return []string{err.Error()}
}

// applyOverrides sets each override on the invitations of its e-mail; an
// override for an e-mail that is not invited is an error naming it.
func applyOverrides(invs []api.Invitation, overrides []api.InviteeEntry) error {
	if unknown := api.ApplyInviteeEntries(invs, overrides); len(unknown) > 0 {
		return &api.ValidationError{Field: perInviteeKey, Problem: api.UnknownInviteesProblem(unknown, "add it to Invitees or correct the e-mail")}
	}
	return nil
}
