package screens

import (
	"strings"
	"testing"

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
