package screens

import (
	"context"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// At the smallest window (60×18) an invitation's vote dialog hides lines
// below, among them an invitee's unknown sender, drawn as a warning: y does
// not approve until the user has scrolled to the end, and says why; n
// cancels at once. Against the local service.
func TestVoteDialogWaitsForHiddenLinesBeforeYes(t *testing.T) {
	d := servertest.StartDemo(t)
	ctx := context.Background()
	var invs []api.Invitation
	for i := range 3 {
		invs = append(invs, api.Invitation{ReceiverUserName: fmt.Sprintf("new%d", i), ReceiverUserEmail: fmt.Sprintf("n%d@x.example", i),
			ReceiverUserTags: []string{}, AccessType: "ACCESS_TYPE_API", SenderUserID: d.Info.Members[1].UserID})
	}
	invs[2].SenderUserID = "u-nobody" // a sender no one in the organization is: a warning
	act, err := d.Client("carol").CreateInvitations(ctx, api.CreateInvitationsParams{Invitations: invs})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("propose: %+v %v", act, err)
	}
	alice := d.Client("alice")
	votes := func() int {
		t.Helper()
		got, err := alice.GetActivity(ctx, act.ID)
		if err != nil {
			t.Fatalf("get: %v", err)
		}
		return len(got.Votes)
	}
	open := func() *harness {
		h := newHarnessWith(t, alice, alice, theme.Options{Dark: true, NoColor: true}, 0)
		h.send(tea.WindowSizeMsg{Width: 60, Height: 18})
		h.selectActivityID(act.ID)
		h.key("a")
		if !h.voteDialogOpen() {
			t.Fatalf("no vote dialog:\n%s", h.frame())
		}
		if strings.Contains(h.frame(), "unknown user") {
			t.Fatalf("the warning shows at once; the test needs it hidden:\n%s", h.frame())
		}
		return h
	}

	h := open()
	h.key("n")
	if h.voteDialogOpen() || votes() != 1 {
		t.Errorf("n did not cancel at once:\n%s", h.frame())
	}

	h = open()
	if _, more := dialogBody(t, h.frame(), "Approve this activity?"); !strings.Contains(more, "warning") {
		t.Errorf("the line under the shown ones does not say a warning is hidden (%q):\n%s", more, h.frame())
	}
	h.key("y")
	if n := votes(); n != 1 {
		t.Fatalf("y approved with the unknown sender never shown: %d votes", n)
	}
	flat := strings.Join(strings.Fields(h.frame()), " ")
	if !h.voteDialogOpen() || !strings.Contains(flat, "warning") || !strings.Contains(flat, "scroll to the end") {
		t.Errorf("the dialog does not say why y waits:\n%s", h.frame())
	}
	sawWarning := false
	for range 40 {
		h.key("down")
		sawWarning = sawWarning || strings.Contains(h.frame(), "unknown user")
	}
	if !sawWarning {
		t.Errorf("scrolling never showed the unknown sender")
	}
	h.key("up") // read to the end once is enough, wherever the window is now
	h.key("y")
	if n := votes(); n != 2 {
		t.Errorf("y after scrolling to the end did not approve: %d votes\n%s", n, h.frame())
	}
}
