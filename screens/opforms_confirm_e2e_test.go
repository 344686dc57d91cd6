package screens

import (
	"bytes"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/server/servertest"
)

// The submit confirm of an operation form names what is asked for in the
// words of the vote dialog the other members will read: the invitee's
// e-mail, and the users a tag goes to. "invite 1 user" or "tag 1 user" would
// let a wrong pick through unseen until the others vote on it.
func TestSubmitConfirmNamesInviteeAndTaggedUsers(t *testing.T) {
	d := servertest.StartDemo(t)
	var log bytes.Buffer
	h := opsHarness(t, d, &log)
	openOperation(h, "create invitations")
	h.typeText("mallory <mallory@evil.example>")
	h.key("ctrl+s")
	out := h.frame()
	if !strings.Contains(out, "Submit create_invitations?") {
		t.Fatalf("no confirm:\n%s", out)
	}
	if !strings.Contains(out, "mallory@evil.example") {
		t.Errorf("the invitation confirm does not name the invitee's e-mail:\n%s", out)
	}

	h2 := opsHarness(t, d, &log)
	openOperation(h2, "create user tag")
	h2.typeText("grant")
	h2.key("tab")
	h2.key("right") // the second user listed: bob
	h2.key("space")
	h2.key("ctrl+s")
	out = h2.frame()
	if !strings.Contains(out, "Submit create_user_tag?") {
		t.Fatalf("no confirm:\n%s", out)
	}
	dialog := out[strings.Index(out, "Submit create_user_tag?"):]
	if !strings.Contains(dialog, "bob") {
		t.Errorf("the tag confirm does not name the user the tag goes to:\n%s", out)
	}
}

// The user picker of create user tag shows one user at a time: after a
// tick and a move, the user shown is not the one ticked. The form lists who
// is ticked, by name, and at 80 columns too.
func TestUserPickerNamesTheTickedUsersAt80Columns(t *testing.T) {
	d := servertest.StartDemo(t)
	var log bytes.Buffer
	h := opsHarness(t, d, &log)
	h.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	openOperation(h, "create user tag")
	h.typeText("grant")
	h.key("tab")
	h.key("space") // the first user listed: alice
	h.key("right")
	h.key("space") // bob
	h.key("right") // carol, not ticked, is shown
	out := h.frame()
	i := strings.Index(out, "picked")
	if i < 0 {
		t.Fatalf("the form does not say what is picked:\n%s", out)
	}
	if rest := out[i:]; !strings.Contains(rest, "alice") || !strings.Contains(rest, "bob") {
		t.Errorf("the form does not name both ticked users (alice, bob):\n%s", out)
	}
}
