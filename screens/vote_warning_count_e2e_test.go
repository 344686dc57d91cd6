package screens

import (
	"regexp"
	"strconv"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/server/servertest"
)

// The vote dialog at 60×20 counts the warnings still below it, not the rows
// they wrap onto: on the demo's pending invitation it said "(9 warnings)"
// below the window while it held fewer warnings than that in all.
func TestVoteDialogCountsWarningsNotRows(t *testing.T) {
	d := servertest.StartDemo(t)
	h := memberConsole(t, d.Client("alice"))
	h.send(tea.WindowSizeMsg{Width: 60, Height: 20})
	for _, it := range h.activities().items {
		if it.Type == "ACTIVITY_TYPE_CREATE_INVITATIONS" {
			h.selectActivityID(it.ID)
			break
		}
	}
	h.key("a")
	if !h.voteDialogOpen() {
		t.Fatalf("no vote dialog:\n%s", h.frame())
	}
	cd, ok := h.root.dialogs.Top().(*ConfirmDialog)
	if !ok {
		t.Fatalf("the vote dialog is a %T", h.root.dialogs.Top())
	}
	held := 0
	for _, w := range cd.confirm.Warn {
		if w {
			held++
		}
	}
	frame := h.frame()
	m := regexp.MustCompile(`\((\d+) warnings?\)`).FindStringSubmatch(frame)
	if m == nil {
		t.Fatalf("the dialog counts no warning below (it holds %d):\n%s", held, frame)
	}
	if n, _ := strconv.Atoi(m[1]); n > held {
		t.Errorf("the dialog says %d warnings below; it holds %d in all:\n%s", n, held, frame)
	}
}
