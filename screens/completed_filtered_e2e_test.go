package screens

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// The All view filtered to waiting activities (s: CONSENSUS_NEEDED): the
// policy completes elsewhere and leaves the list, so no list shows it
// COMPLETED, and the org watch's newest activities do not hold it. The
// refresh that drops it reads its record: the organization is reloaded and
// the vote dialog open on the tag predicts from the new policy.
func TestFilteredAllViewCompletionReloadsTheOrganization(t *testing.T) {
	d := servertest.StartDemo(t)
	tag, pol := tagAndPolicy(t, d)
	pushOutOfWatch(t, d)
	h := memberConsole(t, d.Client("carol"))
	h.key("@Policies")
	h.key("@Activities")
	h.key("v")
	a := h.activities()
	h.run(func() tea.Msg { return filterPickedMsg{kind: "status", values: []string{api.StatusConsensusNeeded}} })
	h.run(a.load())
	h.selectActivityID(tag.ID)
	h.key("a")
	if before := h.frame(); !strings.Contains(before, "if you approve: it still waits") {
		t.Fatalf("set-up: the dialog does not say carol's approval leaves it waiting:\n%s", before)
	}

	completeElsewhere(t, d, pol)
	h.run(a.load())
	h.unseenByWatch(pol.ID)
	if i := indexOfID(a.items, pol.ID); i >= 0 {
		t.Fatalf("set-up: the filtered list still shows the policy (%s)", a.items[i].Status)
	}
	if !h.holdsPolicy("carol alone allows tags") {
		t.Errorf("the policy seen waiting in the filtered All view completed, and the organization was not reloaded: %d policies held", len(h.root.common.Org.Policies))
	}
	body, _ := dialogBody(t, h.frame(), "Approve this activity?")
	after := strings.Join(strings.Fields(strings.Join(body, " ")), " ")
	if strings.Contains(after, "it still waits") || !strings.Contains(after, `allowed by policy "carol alone allows tags"`) {
		t.Errorf("the open dialog still predicts from the policies before the new one:\n%s", after)
	}
	h.key("esc")
	h.key("@Policies")
	if frame := h.frame(); !strings.Contains(frame, "carol alone allows tags") {
		t.Errorf("the Policies screen does not list the completed policy:\n%s", frame)
	}
}

// indexOfID is the index of the activity id in items, -1 when not listed.
func indexOfID(items []api.Activity, id string) int {
	for i := range items {
		if items[i].ID == id {
			return i
		}
	}
	return -1
}
