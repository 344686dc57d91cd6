package screens

import (
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// A reply that lands while the user reads an activity they opened (not
// typing: no filter, form or dialog) does not swap that detail for the
// reply's: the user's next key (a approves) is meant for the one they read.
func TestReplyNeverSwapsTheActivityBeingRead(t *testing.T) {
	h := everyScreenConsole(t)
	h.key("@Activities")
	reply := sampleActivities()[1]
	mine := openOtherThan(t, h, reply.ID)
	h.send(ShowActivityMsg{ID: reply.ID, Activity: &reply})
	if got := h.root.openActivity(); got != mine {
		t.Errorf("a reply swapped the detail the user had open (%s) for %s", mine, got)
	}
	h.key("a")
	if h.voteDialogOpen() && !strings.Contains(h.plainFrame(), api.SanitizeID(mine)) {
		t.Errorf("a, pressed for %s, opened a vote about another activity:\n%s", mine, h.plainFrame())
	}
}
