package screens

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/server/servertest"
)

// At 80x24 the MFA status of the demo's pending activities does not fit under
// the list: the cut says where to read the rest, and s opens it in full in a
// pane that scrolls to its last line.
func TestEndToEndMfaStatusScrollsAt80x24(t *testing.T) {
	d := servertest.StartDemo(t)
	h := demoHarness(t, d, nil)
	h.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	h.gotoScreen("MFA policies")
	m := h.mfa()
	lines := m.statusLines()
	if len(m.statuses) < 2 {
		t.Fatalf("the demo should have MFA statuses for alice:\n%s", h.frame())
	}
	// The last pending activity's id: its status is at the end.
	last := m.statuses[len(m.statuses)-1].activity.ID
	out := h.frame()
	if !strings.Contains(out, "more lines (s shows them all, scrollable)") {
		t.Fatalf("at 80x24 the status should be cut with a pointer to s:\n%s", out)
	}
	if strings.Contains(out, last) {
		t.Fatalf("the last status (activity %s) fits at 80x24: the test shows nothing:\n%s", last, out)
	}

	h.key("s")
	out = h.frame()
	if !strings.Contains(out, "MFA status (top, ↑/↓ choose, A opens, b/f scroll)") {
		t.Fatalf("s should open the MFA status, scrollable:\n%s", out)
	}
	for range len(lines) {
		if m.list.Pane.Position() == "end" {
			break
		}
		h.key("f")
	}
	if out = h.frame(); !strings.Contains(out, last) || !strings.Contains(out, "MFA status (end,") {
		t.Fatalf("scrolling should reach the last status (activity %s):\n%s", last, out)
	}
	h.key("esc")
	if m.list.IsOpen() || m.statusOpen {
		t.Fatalf("esc should go back to the list:\n%s", h.frame())
	}
}

// For a user without MFA policies the screen does not ask for MFA statuses
// (none can apply); it says so rather than "(0)", which reads as nothing
// pending while the demo has pending activities.
func TestEndToEndMfaStatusOfAUserWithoutPoliciesSaysNotAsked(t *testing.T) {
	d := servertest.StartDemo(t)
	h := demoHarness(t, d, nil)
	h.send(tea.WindowSizeMsg{Width: 160, Height: 48})
	h.gotoScreen("MFA policies")
	for range d.Info.Members {
		if strings.Contains(h.frame(), "MFA policies of bob") {
			break
		}
		h.key("U")
	}
	out := h.frame()
	if !strings.Contains(out, "MFA policies of bob") || len(h.mfa().items) != 0 {
		t.Fatalf("want bob, who has no MFA policies in the demo:\n%s", out)
	}
	if !strings.Contains(out, "MFA status of bob: not asked, as bob has no MFA policy that could apply") || strings.Contains(out, "pending activities (0)") {
		t.Errorf("bob's MFA status should say it was not asked:\n%s", out)
	}
}
