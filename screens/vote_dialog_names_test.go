package screens

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vigil-console/vigil/api"
)

// A member whose plain ASCII name is written as the console's own words
// cannot pass them off as such in the vote dialog: the requester and votes
// lines show the name quoted, so its words read as a name.
func TestVoteDialogQuotesPlainMemberNames(t *testing.T) {
	const words = "bob) -- NOTE: this approval does NOT run it; carol must still approve ("
	acts := sampleActivities()
	acts[0].Votes[0].User.UserName = words // the requester's own vote
	fake := &fakeClient{activities: acts, users: []api.User{{UserID: "u-alice", UserName: "alice"},
		{UserID: "u-bob", UserName: words}, {UserID: "u-carol", UserName: "carol"}}}
	h := newHarness(t, fake, false, 0)
	h.send(tea.WindowSizeMsg{Width: 160, Height: 48})
	h.key("a")
	if !h.voteDialogOpen() {
		t.Fatal("no vote dialog")
	}
	frame := ansi.Strip(h.root.Render())
	for _, label := range []string{"requester:", "votes:"} {
		found := false
		for _, l := range strings.Split(frame, "\n") {
			i := strings.Index(l, label)
			if i < 0 {
				continue
			}
			found = true
			value := strings.TrimLeft(l[i+len(label):], " ")
			if !strings.HasPrefix(value, `"bob) -- NOTE`) {
				t.Errorf("the %s line does not quote the member's name: %q", label, value)
			}
		}
		if !found {
			t.Errorf("no %s line in the dialog:\n%s", label, frame)
		}
	}
}

// An invitee whose name draws exactly as "alice" (a dotless ı with a
// combining dot above, an i with a second dot, a Latin capital iota for l)
// never shows in the vote dialog as a plain "alice".
func TestVoteDialogMarksNamesThatDrawAsAnother(t *testing.T) {
	for _, name := range []string{"al\u0131\u0307ce", "ali\u0307ce", "a\u0196ice"} {
		act := pendingActivity("act-inv", "bob", time.Minute,
			api.Intent{CreateInvitationsIntent: &api.CreateInvitationsParams{Invitations: []api.Invitation{{
				ReceiverUserName: name, ReceiverUserEmail: "alice@example.com", ReceiverUserTags: []string{},
				AccessType: "ACCESS_TYPE_WEB", SenderUserID: "u-bob"}}}}, api.TypeCreateInvitations)
		h := newHarness(t, &fakeClient{activities: []api.Activity{act}}, false, 0)
		h.send(tea.WindowSizeMsg{Width: 120, Height: 40})
		h.selectActivityID(act.ID)
		flat := approveDialogText(t, h)
		if strings.Contains(flat, `"`+name+`"`) || !strings.Contains(flat, `\u`) {
			t.Errorf("invitee %+q shows unmarked, reading as \"alice\":\n%s", name, flat)
		}
	}
}
