package screens

import (
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// A refused invitee list names the entry at fault: net/mail says what is
// wrong ("an e-mail address has no @"), not where, and in a pasted list the
// member could not tell which of the invitees to fix.
func TestInviteesErrorNamesTheEntryAtFault(t *testing.T) {
	for _, tc := range []struct{ typed, entry string }{
		{`dan <dan@example.com>, erin <erin-at-example.com>, frank <frank@example.com>`, `"erin <erin-at-example.com>"`},
		{`"Doe, Jane" <jane@example.com>, bad <notanemail>`, `"bad <notanemail>"`},
		{`dan <dan@example.com>, erin <erin@example.com`, `"erin <erin@example.com"`},
		{`dan <dan@example.com> erin <erin@example.com>`, `"dan <dan@example.com> erin <erin@example.com>"`},
		// A comma net/mail does not split at: in a comment.
		{`dave (ops, night) <dave@example.com>, erin erin@example.com`, `"erin erin@example.com"`},
	} {
		d := servertest.StartDemo(t)
		h := memberConsole(t, d.Client("alice"))
		openOperation(h, "create invitations")
		h.typeText(tc.typed)
		h.key("ctrl+s")
		frame := strings.Join(strings.Fields(strings.ReplaceAll(h.frame(), "│", " ")), " ") // the box's wrapped lines as one
		if !strings.Contains(frame, "(in "+tc.entry+")") {
			t.Errorf("%s: the error does not name the entry %s:\n%s", tc.typed, tc.entry, h.frame())
		}
	}
}

// The entry at fault is found where net/mail splits the list: not at a comma
// inside a comment, nested or not, nor inside a quoted name after an escaped
// quote; and an escaped backslash ends no quote early.
func TestInviteesErrorSplitsTheListAsNetMailDoes(t *testing.T) {
	for _, c := range []struct{ list, bad string }{
		{`dave (ops, night) <dave@example.com>, erin erin@example.com`, `erin erin@example.com`},
		{`"Doe \"J, r\"" <jane@example.com>, erin erin@example.com`, `erin erin@example.com`},
		{`dave (ops (a, b) \) x) <dave@example.com>, erin erin@example.com`, `erin erin@example.com`},
		{`dave (ops "x, y) <dave@example.com>, erin erin@example.com`, `erin erin@example.com`},
		{`"Doe \\", erin <erin@example.com>`, `"Doe \\"`},
		{`dan <dan@example.com>, "erin, e <erin@example.com>`, `"erin, e <erin@example.com>`},
		{`dan <dan@example.com>, erin (ops, <erin@example.com>`, `erin (ops, <erin@example.com>`},
	} {
		err := checkInvitees(c.list)
		if err == nil || !strings.Contains(err.Error(), "(in "+api.Quote(c.bad)+")") {
			t.Errorf("%s\n  -> %v\n  want the entry at fault quoted: %s", c.list, err, api.Quote(c.bad))
		}
	}
}
