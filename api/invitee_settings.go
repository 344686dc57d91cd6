package api

import (
	"fmt"
	"net/mail"
	"strings"
)

// Per-invitee settings override, for some invitees of one create_invitations,
// the access type, tags and sender given for all (SPEC.md's
// create_invitations takes all three per invitation). The console's
// invitation form and 'vigil invitation create --per-invitee' read the same
// text: entries separated by ";", each "EMAIL: access=api, tags=a, b,
// sender=alice"; a setting left out keeps the shared one, "tags=" gives none.

// InviteeSettingsExample is an entry as written, for messages.
const InviteeSettingsExample = "dave@example.com: access=api, tags=auditors, on call"

// InviteeEntry is one entry as read. Tags and Sender are as written until
// the caller resolves them to ids (tags and users are the caller's to look
// up); Problems are what is wrong with the entry, the caller adding its own.
type InviteeEntry struct {
	Text      string // the entry as written, to name it while its e-mail is unknown
	Email     string // "" when the entry has none
	Access    string // ACCESS_TYPE_…; "" keeps the shared one
	Tags      []string
	TagsGiven bool   // tags= was given (perhaps empty: no tags)
	Sender    string // "" keeps the shared one
	Problems  []string
}

// ReadInviteeEntries splits s into entries and reads each. An e-mail given
// in two entries is a problem of the second.
func ReadInviteeEntries(s string) []InviteeEntry {
	var out []InviteeEntry
	seen := map[string]bool{}
	for _, text := range strings.Split(s, ";") {
		if text = strings.TrimSpace(text); text == "" {
			continue
		}
		e := readInviteeEntry(text)
		if e.Email != "" {
			key := addressKey(e.Email)
			if seen[key] {
				e.Problems = append(e.Problems, "given twice; merge its settings into one entry")
			}
			seen[key] = true
		}
		out = append(out, e)
	}
	return out
}

// InviteeProblems says every entry's problems at once, each entry named by
// its e-mail (or its text when it has none); "" when there are none.
func InviteeProblems(entries []InviteeEntry) string {
	var problems []string
	for _, e := range entries {
		if len(e.Problems) == 0 {
			continue
		}
		what := "entry " + Quote(e.Text)
		if e.Email != "" {
			what = Quote(e.Email)
		}
		problems = append(problems, what+": "+strings.Join(e.Problems, "; "))
	}
	return strings.Join(problems, "; ")
}

func readInviteeEntry(text string) (e InviteeEntry) {
	e.Text = text
	email, settings, ok := strings.Cut(text, ":")
	if !ok {
		e.Problems = []string{"has no \"EMAIL:\" before its settings; write e.g. " + InviteeSettingsExample}
		return e
	}
	email = strings.TrimSpace(email)
	if a, err := mail.ParseAddress(email); err != nil || a.Address != email || a.Name != "" {
		e.Problems = []string{Quote(email) + " is not an e-mail address; start each entry with the invitee's e-mail, e.g. " + InviteeSettingsExample}
		return e
	}
	e.Email = email
	given := map[string]string{}
	key := ""
	for _, item := range strings.Split(settings, ",") {
		item = strings.TrimSpace(item)
		if k, v, ok := strings.Cut(item, "="); ok && isInviteeSettingKey(strings.TrimSpace(k)) {
			key = strings.ToLower(strings.TrimSpace(k))
			if _, twice := given[key]; twice {
				e.Problems = append(e.Problems, key+"= is given twice")
			}
			given[key] = strings.TrimSpace(v)
			if key == "tags" && given[key] != "" {
				e.Tags = append(e.Tags, given[key])
			}
			continue
		}
		switch {
		case item == "":
		case key == "tags": // a tag list goes on after its first comma
			e.Tags = append(e.Tags, item)
		default:
			e.Problems = append(e.Problems, Quote(item)+" is not access=…, tags=… or sender=…")
		}
	}
	if len(given) == 0 && len(e.Problems) == 0 {
		e.Problems = append(e.Problems, "sets nothing; give access=…, tags=… or sender=…, e.g. "+InviteeSettingsExample)
	}
	if access, ok := given["access"]; ok {
		e.Access = AccessTypeOf(access)
		if e.Access == "" {
			e.Problems = append(e.Problems, "access "+Quote(access)+" is not web, api or all")
		}
	}
	_, e.TagsGiven = given["tags"]
	sender, senderGiven := given["sender"]
	if senderGiven && sender == "" {
		e.Problems = append(e.Problems, "sender= is empty; give a user's id or name, or leave sender= out to keep the shared one")
	}
	e.Sender = sender
	return e
}

func isInviteeSettingKey(k string) bool {
	switch strings.ToLower(k) {
	case "access", "tags", "sender":
		return true
	}
	return false
}

// AccessTypeOf is the access type s names ("api", "ACCESS_TYPE_API"), or "".
func AccessTypeOf(s string) string {
	s = strings.ToUpper(strings.TrimSpace(s))
	if !strings.HasPrefix(s, "ACCESS_TYPE_") {
		s = "ACCESS_TYPE_" + s
	}
	for _, t := range AccessTypes() {
		if s == t {
			return t
		}
	}
	return ""
}

// ApplyInviteeEntries sets each entry (its tags and sender resolved to ids)
// on the invitations of its e-mail. The e-mails no invitation has are
// returned, quoted: settings for someone not invited are a mistake.
func ApplyInviteeEntries(invs []Invitation, entries []InviteeEntry) (unknown []string) {
	for _, e := range entries {
		found := false
		for i := range invs {
			if addressKey(invs[i].ReceiverUserEmail) != addressKey(e.Email) {
				continue
			}
			found = true
			if e.Access != "" {
				invs[i].AccessType = e.Access
			}
			if e.TagsGiven {
				invs[i].ReceiverUserTags = append([]string{}, e.Tags...) // [] rather than null
			}
			if e.Sender != "" {
				invs[i].SenderUserID = e.Sender
			}
		}
		if !found {
			unknown = append(unknown, Quote(e.Email))
		}
	}
	return unknown
}

// UnknownInviteesProblem says which e-mails of per-invitee settings are
// not invited, for ApplyInviteeEntries' unknown.
func UnknownInviteesProblem(unknown []string, fix string) string {
	return fmt.Sprintf("%s is not among the invitees; %s", strings.Join(unknown, ", "), fix)
}

// addressKey is the one form in which two invitees' e-mail addresses are
// compared, wherever they are (a repeated invitee, a --per-invitee entry and
// the invitations it reaches): ASCII letters ignoring case, nothing else
// folded. strings.EqualFold's Unicode folding let "ſam@…" (U+017F) match
// "sam@…", so one setting reached an invitation the repeat check let through.
func addressKey(email string) string {
	b := []byte(email)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
