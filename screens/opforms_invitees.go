package screens

import (
	"errors"
	"fmt"
	"net/mail"
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
	perInviteeExample   = "dave@example.com: access=api, tags=auditors, on call"
)

// inviteeOverride is what one entry sets for its e-mail; an empty access or
// sender, or nil tags, keeps the form's.
type inviteeOverride struct {
	email  string
	access string
	tags   []string // ids, as sent
	sender string   // id, as sent
}

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

// inviteeOverrides reads the per invitee field, resolving each entry's tags
// and sender as the form's own (invitationRefs). Every entry's problems are
// said at once, each naming the entry's e-mail, in one error on the field.
func inviteeOverrides(c *Common, s string) (overrides []inviteeOverride, warnings []string, err error) {
	var problems []string
	seen := map[string]bool{}
	for _, entry := range strings.Split(s, ";") {
		if entry = strings.TrimSpace(entry); entry == "" {
			continue
		}
		o, w, entryProblems := inviteeOverrideOf(c, entry)
		if o.email != "" {
			key := strings.ToLower(o.email)
			if seen[key] {
				entryProblems = append(entryProblems, "given twice; merge its settings into one entry")
			}
			seen[key] = true
		}
		if len(entryProblems) > 0 {
			what := "entry " + api.Quote(entry)
			if o.email != "" {
				what = api.Quote(o.email)
			}
			problems = append(problems, what+": "+strings.Join(entryProblems, "; "))
			continue
		}
		overrides = append(overrides, o)
		warnings = append(warnings, w...)
	}
	if len(problems) > 0 {
		return nil, nil, &api.ValidationError{Field: perInviteeKey, Problem: strings.Join(problems, "; ")}
	}
	return overrides, warnings, nil
}

// inviteeOverrideOf reads one entry; o.email is set once it is known, for
// the problems to name.
func inviteeOverrideOf(c *Common, entry string) (o inviteeOverride, warnings, problems []string) {
	email, settings, ok := strings.Cut(entry, ":")
	if !ok {
		return o, nil, []string{"has no \"EMAIL:\" before its settings; write e.g. " + perInviteeExample}
	}
	email = strings.TrimSpace(email)
	if a, err := mail.ParseAddress(email); err != nil || a.Address != email || a.Name != "" {
		return o, nil, []string{api.Quote(email) + " is not an e-mail address; start each entry with the invitee's e-mail, e.g. " + perInviteeExample}
	}
	o.email = email
	given := map[string]string{}
	var tags []string
	key := ""
	for _, item := range strings.Split(settings, ",") {
		item = strings.TrimSpace(item)
		if k, v, ok := strings.Cut(item, "="); ok && isOverrideKey(strings.TrimSpace(k)) {
			key = strings.ToLower(strings.TrimSpace(k))
			if _, twice := given[key]; twice {
				problems = append(problems, key+"= is given twice")
			}
			given[key] = strings.TrimSpace(v)
			if key == "tags" && given[key] != "" {
				tags = append(tags, given[key])
			}
			continue
		}
		switch {
		case item == "":
		case key == "tags": // a tag list goes on after its first comma
			tags = append(tags, item)
		default:
			problems = append(problems, api.Quote(item)+" is not access=…, tags=… or sender=…")
		}
	}
	if len(given) == 0 && len(problems) == 0 {
		problems = append(problems, "sets nothing; give access=…, tags=… or sender=…, e.g. "+perInviteeExample)
	}
	if access, ok := given["access"]; ok {
		o.access = accessTypeOf(access)
		if o.access == "" {
			problems = append(problems, "access "+api.Quote(access)+" is not web, api or all")
		}
	}
	_, tagsGiven := given["tags"]
	sender, senderGiven := given["sender"]
	if senderGiven && sender == "" {
		problems = append(problems, "sender= is empty; give a user's id or name, or leave sender= out to keep the form's")
	}
	ids, id, w, err := invitationRefs(c, map[string]string{"receiverUserTags": strings.Join(tags, ", "), "senderUserId": sender})
	problems = append(problems, problemsOf(err)...)
	if tagsGiven {
		o.tags = ids
	}
	o.sender = id
	return o, w, problems
}

func isOverrideKey(k string) bool {
	switch strings.ToLower(k) {
	case "access", "tags", "sender":
		return true
	}
	return false
}

// accessTypeOf is the access type s names ("api", "ACCESS_TYPE_API"), or "".
func accessTypeOf(s string) string {
	s = strings.ToUpper(strings.TrimSpace(s))
	if !strings.HasPrefix(s, "ACCESS_TYPE_") {
		s = "ACCESS_TYPE_" + s
	}
	for _, t := range api.AccessTypes() {
		if s == t {
			return t
		}
	}
	return ""
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
func applyOverrides(invs []api.Invitation, overrides []inviteeOverride) error {
	var unknown []string
	for _, o := range overrides {
		found := false
		for i := range invs {
			if !strings.EqualFold(invs[i].ReceiverUserEmail, o.email) {
				continue
			}
			found = true
			if o.access != "" {
				invs[i].AccessType = o.access
			}
			if o.tags != nil {
				invs[i].ReceiverUserTags = o.tags
			}
			if o.sender != "" {
				invs[i].SenderUserID = o.sender
			}
		}
		if !found {
			unknown = append(unknown, api.Quote(o.email))
		}
	}
	if len(unknown) > 0 {
		return &api.ValidationError{Field: perInviteeKey, Problem: fmt.Sprintf("%s is not among the invitees; add it to Invitees or correct the e-mail", strings.Join(unknown, ", "))}
	}
	return nil
}
