package screens

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
)

// A vote dialog scrolled part-way in a narrow window, then widened: the
// offset (in rows of the narrow wrapping) is kept as rows of the wide one,
// so the window jumps past lines never drawn; scrolling on to the end then
// lets y vote with those lines unread.
func TestVoteDialogWidenedKeepsUnreadLinesUnread(t *testing.T) {
	const long = "Sender With A Long Name Xyz"
	users := []api.User{{UserID: "u-alice", UserName: "alice"}, {UserID: "u-bob", UserName: "bob"},
		{UserID: "u-carol", UserName: "carol"}, {UserID: "u-sender-0123456789", UserName: long}}
	var invs []api.Invitation
	for i := range 12 {
		inv := api.Invitation{ReceiverUserName: fmt.Sprintf("Invitee Number %02d Name", i),
			ReceiverUserEmail: fmt.Sprintf("invitee%02d@example.com", i), ReceiverUserTags: []string{},
			AccessType: "ACCESS_TYPE_WEB", SenderUserID: "u-sender-0123456789"}
		if i == 6 {
			inv.SenderUserID = "u-mallory-not-a-member" // the warning a voter must read
		}
		invs = append(invs, inv)
	}
	act := pendingActivity("act-inv", "bob", time.Minute,
		api.Intent{CreateInvitationsIntent: &api.CreateInvitationsParams{Invitations: invs}}, api.TypeCreateInvitations)
	for _, downs := range []int{29} {
		fake := &fakeClient{activities: []api.Activity{act}, users: users}
		h := newHarness(t, fake, false, 0)
		h.send(tea.WindowSizeMsg{Width: 60, Height: 18})
		h.key("a")
		if !h.voteDialogOpen() {
			t.Fatal("no vote dialog")
		}
		seen := h.frame()
		for range downs {
			h.key("down")
			seen += h.frame()
		}
		h.send(tea.WindowSizeMsg{Width: 100, Height: 18})
		seen += h.frame()
		for range 80 {
			h.key("down")
			seen += h.frame()
		}
		if strings.Contains(seen, "u-mallory-not-a-member") {
			continue
		}
		h.key("y")
		_, approvals, _ := fake.counts()
		if approvals > 0 {
			t.Fatalf("after %d lines scrolled at 60 wide and a widening to 100, y approved though the line naming the unknown sender (u-mallory-not-a-member) was never on screen", downs)
		}
		t.Logf("downs=%d: line skipped but y refused", downs)
	}
}
