package screens

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
)

// The dialog scrolls and the user has read to its end when another member's
// vote lands: the votes line changes, above the window. The approval must
// not go out (y acknowledges, ↓ to the end, y) before the new votes line,
// carol's rejection, has been on screen.
func TestVoteDialogShowsAChangedLineAboveTheWindowBeforeYVotes(t *testing.T) {
	fake := &fakeClient{activities: []api.Activity{pendingActivity("act-keys2", "op", time.Minute,
		api.Intent{DeleteAPIKeysIntent: &api.DeleteAPIKeysParams{UserID: "u-carol", APIKeyIDs: strings.Fields("key-1 key-2 key-3 key-4 key-5 key-6 key-7 key-8 key-9 key-10 key-11 key-12 key-13 key-14 key-15 key-16 key-17 key-18 key-19 key-20")}},
		api.TypeDeleteAPIKeys)},
		policies: []api.Policy{{PolicyID: "pol-keys", PolicyName: "key deletions need three approvers from the operations team, as agreed in the March review",
			Effect: api.EffectAllow, Condition: "activity.type == 'ACTIVITY_TYPE_DELETE_API_KEYS'", Consensus: "approvers.count() >= 3"}}}
	h := newHarness(t, fake, false, 0)
	a := h.activities()
	h.send(tea.WindowSizeMsg{Width: 60, Height: 18})
	h.key("a")
	if !h.voteDialogOpen() {
		t.Fatalf("no dialog:\n%s", h.frame())
	}
	for range 10 {
		h.key("pgdown")
	}
	othersVote(fake, "carol", api.VoteRejected, api.StatusConsensusNeeded)
	h.run(a.load())
	frames := []string{h.frame()}
	if !strings.Contains(h.frame(), "changed while open") {
		t.Fatalf("set-up: the dialog does not say it changed:\n%s", h.frame())
	}
	h.key("y") // acknowledges
	frames = append(frames, h.frame())
	h.key("pgdown") // the lines the notice pushed below: read to the end again
	frames = append(frames, h.frame())
	h.key("y") // votes
	sawCarol := false
	for _, f := range frames {
		sawCarol = sawCarol || strings.Contains(f, "carol")
	}
	if len(fake.approvals) == 1 && !sawCarol {
		t.Errorf("the approval was sent after the votes changed, and the changed votes line (carol's rejection) was never on screen:\n%s", strings.Join(frames, "\n"))
	}
}
