package screens

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/server/servertest"
)

// An invitee address net/mail reads as other text than was typed (a quoted
// local part comes out unquoted) is refused under the field, as the CLI and
// the service refuse it, rather than confirmed and sent as an address the
// member never wrote.
func TestInvitationFormRefusesAnAddressNotSentAsTyped(t *testing.T) {
	for _, typed := range []string{`dave <"dave"@example.com>`, `"erin"@example.com`} {
		t.Run(typed, func(t *testing.T) {
			h, _ := invitationsForm(t)
			h.typeText(typed)
			h.key("ctrl+s")
			// No confirm: nothing can be sent without one.
			if _, ok := h.root.dialogs.Top().(*opFormDialog); !ok {
				t.Fatalf("%s was taken as another address; the form should stay open and say why:\n%s", typed, h.frame())
			}
			if out := h.frame(); !strings.Contains(out, "is not written as it reads") {
				t.Errorf("the form does not say why %s is refused:\n%s", typed, out)
			}
		})
	}
}

// A list with a blank entry (a trailing comma, as deleting the partial
// entry of a cut paste leaves it, or two commas in a row) reaches the
// confirm with the invitees it holds, as net/mail reads it (audit 280,
// finding 1: the form refused it, saying it "splits at its commas into 3").
func TestInvitationFormSkipsABlankEntry(t *testing.T) {
	for _, tc := range []struct {
		typed string
		ctrlW bool // delete the last word, as the cut message advises
	}{
		{typed: `dave <dave@example.com>, erin <erin@example.com>,`},
		{typed: `dave <dave@example.com>, erin <erin@example.com>, fr`, ctrlW: true},
		{typed: `dave <dave@example.com>, , erin <erin@example.com>`},
		{typed: `dave <dave@example.com>,,erin <erin@example.com>,	`},
	} {
		t.Run(tc.typed, func(t *testing.T) {
			h, _ := invitationsForm(t)
			h.typeText(tc.typed)
			if tc.ctrlW {
				h.key("ctrl+w")
			}
			h.key("ctrl+s")
			if f, ok := h.root.dialogs.Top().(*opFormDialog); ok {
				t.Fatalf("refused: %q", f.form.Errors()["invitees"])
			}
			if _, ok := h.root.dialogs.Top().(*ConfirmDialog); !ok {
				t.Fatalf("no confirm:\n%s", h.frame())
			}
			out := h.frame()
			if !strings.Contains(out, `"dave" <"dave@example.com">`) || !strings.Contains(out, `"erin" <"erin@example.com">`) || strings.Contains(out, "invite 3") {
				t.Errorf("the confirm does not list dave and erin alone:\n%s", out)
			}
		})
	}
}

// An entry that holds only a no-break space (a list pasted from a web page,
// "…,\u00a0" at its end or between two commas) is skipped as a blank one is,
// and the confirm lists exactly the invitees sent (audit 289, finding 2: the
// form refused the list with an error that named no entry and spoke of
// commas and quotes).
func TestInvitationFormSkipsAnEntryOfANoBreakSpace(t *testing.T) {
	for _, typed := range []string{
		"dave <dave@example.com>, erin <erin@example.com>,\u00a0",
		"dave <dave@example.com>,\u00a0, erin <erin@example.com>",
		"dave <dave@example.com>, \u00a0 \u2003,erin <erin@example.com>, ",
	} {
		t.Run(typed, func(t *testing.T) {
			names, confirm := submitInvitees(t, typed)
			if want := []string{"dave", "erin"}; !slices.Equal(names, want) {
				t.Errorf("sent names %q, want %q", names, want)
			}
			if !strings.Contains(confirm, `"dave" <"dave@example.com">`) || !strings.Contains(confirm, `"erin" <"erin@example.com">`) || strings.Contains(confirm, "invite 3") {
				t.Errorf("the confirm does not list dave and erin alone:\n%s", confirm)
			}
		})
	}
}

// invitationsForm is an operations console on a new demo service d with
// the "create invitations" form open.
func invitationsForm(t *testing.T) (*harness, *servertest.Demo) {
	t.Helper()
	d := servertest.StartDemo(t)
	var log bytes.Buffer
	h := opsHarness(t, d, &log)
	openOperation(h, "create invitations")
	return h, d
}
