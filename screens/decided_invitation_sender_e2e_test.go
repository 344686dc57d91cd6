package screens

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// A warning of an invitation's unknown sender says what the service will do
// (fail it once the quorum voted); a decided invitation is past that, so its
// detail says the sender is not among the users, in no warning. Here the
// service failed it for that sender. Against the local service.
func TestDecidedInvitationDetailDoesNotWarnOfItsSender(t *testing.T) {
	d := servertest.StartDemo(t)
	ctx := context.Background()
	bogus := memberID(t, d, "carol") + "Q"
	act, err := d.Client("alice").CreateInvitations(ctx, api.CreateInvitationsParams{Invitations: []api.Invitation{{
		ReceiverUserName: "eve", ReceiverUserEmail: "eve@example.com", ReceiverUserTags: []string{},
		AccessType: api.AccessTypeWeb, SenderUserID: bogus}}})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("set-up: a pending invitation: %+v %v", act, err)
	}
	if done, err := d.Client("bob").ApproveActivity(ctx, act.Fingerprint); err != nil || !api.IsTerminal(done.Status) {
		t.Fatalf("set-up: bob's approval did not decide the invitation: %+v %v", done, err)
	}

	h := memberConsole(t, d.Client("bob"))
	h.key("v")
	h.selectActivityID(act.ID)
	h.key("enter")
	flat := strings.Join(strings.Fields(h.frame()), " ")
	if want := "invite 1 sender: " + bogus + " (not among the organization's users as last loaded)"; !strings.Contains(flat, want) {
		t.Errorf("the decided invitation's detail lacks %q:\n%s", want, h.frame())
	}
	if strings.Contains(flat, "sender: unknown user") {
		t.Errorf("the decided invitation's detail warns of its sender:\n%s", h.frame())
	}
}
