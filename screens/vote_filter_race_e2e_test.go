package screens

import (
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// A change of the list and a vote key typed in one burst: the vote is asked
// for on the row highlighted, then the change lands and the list no longer
// shows it. The dialog, arriving after, is withdrawn (nothing sent, the
// toast says why) rather than asking to vote on an activity not highlighted,
// whichever path changed the list: the filter picker, a saved filter from
// the palette, the Pending/All toggle. Against the local service.
func TestListChangedBeforeTheVoteDialogArrivesWithdrawsIt(t *testing.T) {
	changes := map[string]func(h *harness, a *Activities){
		"filter picked": func(h *harness, _ *Activities) {
			h.send(filterPickedMsg{kind: "status", values: []string{api.StatusCompleted}})
		},
		"saved filter": func(h *harness, _ *Activities) {
			h.send(savedFilterMsg{SavedFilter{Name: "done", Statuses: []string{api.StatusCompleted}}})
		},
		"view toggled": func(h *harness, a *Activities) {
			h.run(a.toggleMode())
		},
	}
	for name, change := range changes {
		t.Run(name, func(t *testing.T) {
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
			change(h, a)
			h.run(asked)
			if h.voteDialogOpen() {
				if cd, ok := h.root.dialogs.Top().(*ConfirmDialog); ok && cd.withdrawn == "" {
					t.Fatalf("the vote dialog opened for an activity the list no longer highlights:\n%s", h.frame())
				}
			}
			if !strings.Contains(h.frame(), "the list changed before the vote dialog opened") {
				t.Errorf("nothing says why the vote was withdrawn:\n%s", h.frame())
			}
		})
	}
}
