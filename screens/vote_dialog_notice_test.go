package screens

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// A notice that arrives while the vote dialog is open takes lines from the
// body the dialog is drawn in, but the dialog keeps the height it was given
// when it opened (sizeDialogs runs only on a resize and an open): its count
// of what has been on screen counts rows the frame no longer shows, and y
// approves with "↓ N more lines: scroll to the end" on screen.
func TestNoticeWhileVoteDialogOpenNeverLetsYApproveUnshownLines(t *testing.T) {
	d := servertest.StartDemo(t)
	ctx := context.Background()
	for hh := 18; hh <= 48; hh++ {
		alice := d.Client("alice")
		h := newHarnessWith(t, alice, alice, theme.Options{Dark: true, NoColor: true}, 30*time.Second)
		h.send(tea.WindowSizeMsg{Width: 80, Height: hh})
		a := h.activities()
		i := -1
		for j, it := range a.items {
			if it.Type == api.TypeSetOrganizationFeature && it.Status == api.StatusConsensusNeeded {
				i = j
			}
		}
		if i < 0 {
			t.Fatal("no pending set feature in the demo")
		}
		h.key("g")
		for range i {
			h.key("j")
		}
		want := a.items[i]
		h.key("a")
		before := h.frame()
		if !h.voteDialogOpen() || strings.Contains(before, "↓") {
			h.key("esc")
			continue // the dialog does not fit whole at this height
		}
		// Bob submits an activity with a long name; the refresh announces it.
		if _, err := d.Client("bob").CreateUserTag(ctx, api.CreateUserTagParams{
			UserTagName: strings.Repeat("quarterly-finance-reviewers ", 5), UserIDs: []string{}}); err != nil {
			t.Fatal(err)
		}
		h.send(activitiesTickMsg{gen: a.autoGen})
		after := h.frame()
		if !strings.Contains(after, "↓") {
			t.Fatalf("setup: the notice did not shorten the dialog at 80x%d:\n%s", hh, after)
		}
		h.key("y")
		got, err := alice.GetActivity(ctx, want.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.VoteOf(a.c.Org.UserID) != nil {
			t.Errorf("at 80x%d y approved %s while the dialog said lines below were never shown:\n%s", hh, want.ID, after)
		}
		return
	}
	t.Fatal("setup: no height fits the dialog whole")
}
