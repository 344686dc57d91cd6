package screens

import (
	"strings"
	"testing"

	"github.com/vigil-console/vigil/server/servertest"
)

// The MFA status names each pending activity as the WHAT column of
// Activities does, with its id; in the status pane (s) ↑/↓ choose one and A
// opens it in Activities, to read and vote on. Against the local service.
func TestEndToEndMfaStatusOpensTheChosenActivity(t *testing.T) {
	d := servertest.StartDemo(t)
	h := demoHarness(t, d, nil)
	h.gotoScreen("MFA policies")
	m := h.mfa()
	if len(m.statuses) < 2 {
		t.Fatalf("the demo should have MFA statuses for alice's pending activities:\n%s", h.frame())
	}
	out := h.frame()
	for _, s := range m.statuses {
		what := activityRow(h.root.common, &s.activity, h.root.common.Now()).Cells[1]
		if !strings.Contains(out, what+" (activity "+s.activity.ID+")") {
			t.Errorf("the MFA status does not name activity %s as Activities does (%q):\n%s", s.activity.ID, what, out)
		}
	}

	// Under the list nothing is chosen: A says where to choose.
	h.key("A")
	if h.root.ActiveTitle() != "MFA policies" || !h.toasted("open the MFA status first") {
		t.Fatalf("A under the list went to %s, or did not say how to choose:\n%s", h.root.ActiveTitle(), h.frame())
	}

	h.key("s")
	if out := h.frame(); !strings.Contains(out, "A open in Activities") || !strings.Contains(out, "▸ ") {
		t.Fatalf("the MFA status does not offer to open a chosen activity:\n%s", out)
	}
	h.key("down")
	want := m.statuses[1].activity.ID
	h.key("A")
	if h.root.ActiveTitle() != "Activities" {
		t.Fatalf("A left the user on %s", h.root.ActiveTitle())
	}
	if det := h.activities().detail; det == nil || det.activity.ID != want {
		t.Fatalf("Activities does not show the chosen activity %s open:\n%s", want, h.frame())
	}
	if out := h.detailText(); !strings.Contains(out, want) {
		t.Errorf("the opened detail does not show the activity:\n%s", out)
	}
}
