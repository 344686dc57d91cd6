package screens

import (
	"errors"
	"fmt"
	"net/mail"
	"strings"

	"github.com/vigil-console/vigil/api"
)

// parseInvitees reads the invitee list s as net/mail does, its blank
// entries left out (inviteeEntries), and refuses it, saying why and where,
// when it is no list of invitees or one not sent as typed (addressesAsTyped).
// The text checked is the text parsed, so the confirm lists what is sent.
func parseInvitees(s string) ([]*mail.Address, error) {
	list := strings.Join(inviteeEntries(s), ",")
	addrs, err := mail.ParseAddressList(list)
	if err != nil {
		return nil, errors.New(inviteesProblem(err, badInvitee(list)))
	}
	if err := addressesAsTyped(list, addrs); err != nil {
		return nil, err
	}
	return addrs, nil
}

// addressesAsTyped refuses an invitee net/mail read as other text than was
// typed, so that the confirm shows, and the service gets, what the member
// wrote, as with 'vigil invitation create --name N --email E':
//   - an address that comes out otherwise: a quoted local part
//     ("dave"@example.com) comes out unquoted, a space or comment inside one
//     (dave @ example.com) dropped. The CLI and the service refuse a quoted
//     local part (api's Invitation.Validate); the form says so in the same words;
//   - a comment, which net/mail drops or turns into the name
//     (dave@example.com (ops) would be sent named "ops");
//   - a name net/mail changes: runs of spaces collapsed, an encoded word
//     (=?utf-8?q?…?=) decoded.
func addressesAsTyped(typed string, addrs []*mail.Address) error {
	for _, a := range addrs {
		if !strings.Contains(typed, a.Address) {
			return fmt.Errorf("an address is not written as it reads (%s): a quoted local part, or a space or comment inside an address, is not accepted; send a plain address such as alice@example.com", api.Quote(a.Address))
		}
	}
	entries := inviteeEntries(typed)
	if len(entries) != len(addrs) {
		// Not expected once the list parsed (an entry that is only a
		// comment, which net/mail skips, would do it); refused rather than
		// sent unchecked.
		return fmt.Errorf("the list reads as %d invitee(s) but holds %d entries between its commas; write each as name <e-mail>, separated by commas, with nothing else between them", len(addrs), len(entries))
	}
	for i, a := range addrs {
		entry := strings.Trim(entries[i], mailSpace)
		if hasComment(entry) {
			return fmt.Errorf("a comment in parentheses is not sent as written (in %s): to name the invitee, write %s instead",
				api.Quote(clip(entry, 60)), api.Quote(namedAddress(a)))
		}
		if name := typedName(entry); name != a.Name {
			return fmt.Errorf("the name of %s would be sent as %s, not as typed (%s): write the name in double quotes exactly as it should read, such as %s",
				api.Quote(a.Address), api.Quote(a.Name), api.Quote(name), api.Quote(quotedName(name)+" <"+a.Address+">"))
		}
	}
	return nil
}

// mailSpace is the white space net/mail skips around the words of a name
// and between the entries of a list: not a no-break space, which it keeps in
// the name, as 'vigil invitation create --name' does.
const mailSpace = " \t\r\n"

// quotedName is name as one RFC 5322 quoted string, its backslashes and
// double quotes escaped, so that net/mail reads it back as name.
func quotedName(name string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(name) + `"`
}

// namedAddress is a as the form takes it: name <address>.
func namedAddress(a *mail.Address) string {
	if a.Name == "" {
		return "name <" + a.Address + ">"
	}
	return a.Name + " <" + a.Address + ">"
}

// inviteeEntries splits s at the commas net/mail splits an address list at:
// not one inside a quoted name ("Doe, Jane") or a comment. A blank entry (a
// trailing comma, as deleting the partial entry of a cut paste leaves, or
// two commas in a row) is left out, as net/mail skips it; so is one of
// other white space, such as a no-break space pasted from a web page, which
// net/mail refuses and no one can see (parseInvitees gives net/mail the
// entries kept).
func inviteeEntries(s string) []string {
	var entries []string
	keep := func(entry string) {
		if strings.TrimSpace(entry) != "" {
			entries = append(entries, entry)
		}
	}
	entry, open := "", addressOpenings{}
	for i, piece := range strings.Split(s, ",") {
		if i > 0 && open.unclosed() {
			entry += ","
			open.read(",")
		} else if i > 0 {
			keep(entry)
			entry = ""
		}
		entry += piece
		open.read(piece)
	}
	keep(entry)
	return entries
}

// hasComment reports whether entry holds a "(" outside a quoted string: the
// start of a comment.
func hasComment(entry string) bool {
	o := addressOpenings{}
	for _, r := range entry {
		if r == '(' && !o.quoted && !o.escaped {
			return true
		}
		o.read(string(r))
	}
	return false
}

// typedName is the name written before the entry's <address>, trimmed of
// the white space net/mail trims (mailSpace), and read out of its double
// quotes when it is one quoted string; "" for a bare address.
func typedName(entry string) string {
	o := addressOpenings{}
	for i, r := range entry {
		if r == '<' && !o.quoted {
			return unquoteName(strings.Trim(entry[:i], mailSpace))
		}
		o.read(string(r))
	}
	return ""
}

// unquoteName reads a name written as one quoted string ("Doe, Jane"), whose
// backslash escapes the next character, as net/mail does; any other name is
// returned as written.
func unquoteName(name string) string {
	if len(name) < 2 || name[0] != '"' || name[len(name)-1] != '"' {
		return name
	}
	var b strings.Builder
	escaped := false
	for _, r := range name[1 : len(name)-1] {
		switch {
		case escaped:
			b.WriteRune(r)
			escaped = false
		case r == '\\':
			escaped = true
		case r == '"':
			return name // more than one quoted string: not read here
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
