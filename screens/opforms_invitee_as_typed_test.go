package screens

import (
	"bytes"
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
			d := servertest.StartDemo(t)
			var log bytes.Buffer
			h := opsHarness(t, d, &log)
			openOperation(h, "create invitations")
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
