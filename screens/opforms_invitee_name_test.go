package screens

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/server/servertest"
)

// An invitee whose name net/mail would send otherwise than typed is refused
// under the field, saying how to write it: a comment after an address
// (net/mail makes it the name), runs of spaces in a bare name (collapsed),
// an encoded word (decoded). 'vigil invitation create --name' sends a name as
// given, and so does the form, or it refuses.
func TestInvitationFormRefusesANameNotSentAsTyped(t *testing.T) {
	for _, tc := range []struct{ typed, want string }{
		{`dave@example.com (ops)`, `a comment in parentheses is not sent as written (in "dave@example.com (ops)"): to name the invitee, write "ops <dave@example.com>" instead`},
		{`Dave (ops) <dave@example.com>`, `write "Dave <dave@example.com>" instead`},
		{`Dave  Smith <dave@example.com>`, `the name of "dave@example.com" would be sent as "Dave Smith", not as typed ("Dave  Smith")`},
		{`erin <erin@example.com>, =?utf-8?q?Dave?= <dave@example.com>`, `would be sent as "Dave", not as typed ("=?utf-8?q?Dave?=")`},
	} {
		t.Run(tc.typed, func(t *testing.T) {
			d := servertest.StartDemo(t)
			var log bytes.Buffer
			h := opsHarness(t, d, &log)
			openOperation(h, "create invitations")
			h.typeText(tc.typed)
			h.key("ctrl+s")
			f, ok := h.root.dialogs.Top().(*opFormDialog)
			if !ok {
				t.Fatalf("%s was taken; the form should stay open and say why:\n%s", tc.typed, h.frame())
			}
			if got := f.form.Errors()["invitees"]; !strings.Contains(got, tc.want) {
				t.Errorf("the field says %q, want %q", got, tc.want)
			}
		})
	}
}

// A name in double quotes is sent exactly as typed, spaces and commas kept; a
// bare address is named after its local part.
func TestInvitationFormSendsAQuotedNameAsTyped(t *testing.T) {
	d := servertest.StartDemo(t)
	var log bytes.Buffer
	h := opsHarness(t, d, &log)
	openOperation(h, "create invitations")
	h.typeText(`"Dave  Smith" <dave@example.com>, "Doe, Jane" <jane@example.com>, erin@example.com`)
	h.key("ctrl+s")
	for i := 0; i < 200; i++ {
		cd, ok := h.root.dialogs.Top().(*ConfirmDialog)
		if !ok {
			t.Fatalf("ctrl+s asked for no confirm:\n%s", h.frame())
		}
		if lines, _ := cd.confirm.Unread(cd.width, cd.height); lines == 0 {
			break
		}
		h.key("down")
	}
	h.key("y")
	a := followed(t, h, d)
	intent := a.Intent.CreateInvitationsIntent
	if intent == nil {
		t.Fatalf("no create_invitations intent: %+v", a)
	}
	var names []string
	for _, inv := range intent.Invitations {
		names = append(names, inv.ReceiverUserName)
	}
	if want := []string{"Dave  Smith", "Doe, Jane", "erin"}; !slices.Equal(names, want) {
		t.Errorf("sent names %q, want %q", names, want)
	}
}
