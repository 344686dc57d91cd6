package screens

import (
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// A filter picked and a vote key typed in one burst: the vote is asked for
// on the row highlighted, then the pick lands and the list no longer shows
// it. The dialog, arriving after, is withdrawn (nothing sent, the toast
// says why) rather than asking to vote on an activity not highlighted.
// Against the local service.
func TestFilterPickedBeforeTheVoteDialogArrivesWithdrawsIt(t *testing.T) {
	d := servertest.StartDemo(t)
	h := memberConsole(t, d.Client("carol"))
	a := h.activities()
	if a.selected() == nil {
		t.Fatalf("set-up: no pending activity highlighted:\n%s", h.frame())
	}
	asked := a.askVote(true)
	if a.asking == nil {
		t.Fatalf("set-up: no vote asked for:\n%s", h.frame())
	}
	h.send(filterPickedMsg{kind: "status", values: []string{api.StatusCompleted}})
	h.run(asked)
	if h.voteDialogOpen() {
		if cd, ok := h.root.dialogs.Top().(*ConfirmDialog); ok && cd.withdrawn == "" {
			t.Fatalf("the vote dialog opened for an activity the list no longer highlights:\n%s", h.frame())
		}
	}
	if !strings.Contains(h.frame(), "the filter changed before the vote dialog opened") {
		t.Errorf("nothing says why the vote was withdrawn:\n%s", h.frame())
	}
}
