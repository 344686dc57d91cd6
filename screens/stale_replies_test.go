package screens

import (
	"testing"

	"github.com/vigil-console/vigil/api"
)

// Replies that come late — fetched before something newer was shown, answered
// after it — never replace what is newer (audit34).

// A record of the open activity fetched before your vote and answered after
// the vote's reply must not put the old status back on the list row: the row
// would offer the vote again.
func TestLateDetailRecordKeepsYourVoteOnTheRow(t *testing.T) {
	fake := &fakeClient{activities: sampleActivities()}
	h := newHarness(t, fake, false, 0)
	h.key("enter")
	a := h.activities()
	if a.detail == nil {
		t.Fatal("no detail opened")
	}
	before := a.detail.activity // what a record fetch sent now brings back
	h.key("a")
	h.key("y")
	if a.detail.activity.Status != api.StatusCompleted {
		t.Fatalf("setup: the approval did not complete it: %s", a.detail.activity.Status)
	}
	h.send(activityDetailMsg{id: before.ID, activity: &before})
	if a.detail.activity.Status != api.StatusCompleted {
		t.Errorf("the detail shows your vote undone: %s", a.detail.activity.Status)
	}
	h.key("esc")
	for _, it := range a.items {
		if it.ID == before.ID && it.Status != api.StatusCompleted {
			t.Errorf("the row of %s shows %s after your approval completed it", it.ID, shortStatus(it.Status))
		}
	}
	if sel := a.selected(); sel != nil && sel.ID == before.ID && a.voteBlock(sel, true) == "" {
		t.Errorf("approve is offered again on the row you just approved:\n%s", h.frame())
	}
}
