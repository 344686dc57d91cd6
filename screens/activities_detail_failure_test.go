package screens

import (
	"context"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// A FAILED activity whose failure carries details (the official client's
// rpcStatus.details, protobuf Any records) shows them in its detail under
// the failure's message, a line each, escaped: an escape sequence and a bidi
// override in them reach the terminal as text.
func TestActivityDetailShowsFailureDetails(t *testing.T) {
	d := servertest.StartDemo(t)
	ctx := context.Background()
	// Through the client, which does not look users up: a sender that is no
	// user passes until the activity runs, and then it FAILS.
	act, err := d.Client("alice").CreateInvitations(ctx, api.CreateInvitationsParams{Invitations: []api.Invitation{{
		ReceiverUserName: "eve", ReceiverUserEmail: "eve@example.com", ReceiverUserTags: []string{},
		AccessType: api.AccessTypeWeb, SenderUserID: "bogusQ"}}})
	if err != nil {
		t.Fatal(err)
	}
	if done, err := d.Client("bob").ApproveActivity(ctx, act.Fingerprint); err != nil || done.Status != api.StatusFailed {
		t.Fatalf("approve: %+v %v; want the activity FAILED", done, err)
	}
	const details = `"details":[{"@type":"type.googleapis.com/google.rpc.BadRequest","fieldViolations":[{"field":"invitations[0].senderUserId","description":"no such user\u001b[31m"}]},` +
		`{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"SENDER_NOT_FOUND","metadata":{"user\u202eId":"bogusQ"}}],`
	bob := d.ClientAt(d.Rewriting(func(op string, _, reply []byte) []byte {
		if !strings.Contains(op, "activit") {
			return reply
		}
		return []byte(strings.ReplaceAll(string(reply), `"failure":{`, `"failure":{`+details))
	}), "bob", api.WithExactStrings())
	h := newHarnessWith(t, bob, bob, theme.Options{Dark: true, NoColor: true}, 0)
	h.send(tea.WindowSizeMsg{Width: 240, Height: 300})
	h.key("v") // every activity, not only the pending ones
	h.selectActivityID(act.ID)
	h.key("enter")
	f := h.frame()
	if !strings.Contains(f, `is not a user of this organization (code 5)`) {
		t.Errorf("the detail does not show the failure's message:\n%s", f)
	}
	for label, want := range map[string]string{
		"detail 1:": `{"@type":"type.googleapis.com/google.rpc.BadRequest","fieldViolations":[{"description":"no such user\u001b[31m","field":"invitations[0].senderUserId"}]}`,
		"detail 2:": `{"@type":"type.googleapis.com/google.rpc.ErrorInfo","metadata":{"user\u202eId":"bogusQ"},"reason":"SENDER_NOT_FOUND"}`,
	} {
		if !slices.ContainsFunc(strings.Split(f, "\n"), func(l string) bool {
			return strings.Contains(l, label) && strings.Contains(l, want)
		}) {
			t.Errorf("the detail has no line %q %s:\n%s", label, want, f)
		}
	}
	if strings.ContainsAny(h.root.Render(), "\u202e") || strings.Contains(f, "\x1b") {
		t.Errorf("a control character from the details reached the terminal:\n%q", f)
	}
}
