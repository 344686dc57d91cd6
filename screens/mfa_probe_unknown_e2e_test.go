package screens

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// The MFA status counts the pending activities it checked; when the look for
// older pending ones fails, its heading says that whether any are is
// unknown, and why, rather than a count that reads as all of them.
func TestEndToEndMfaStatusSaysOlderPendingUnknownWhenProbeFails(t *testing.T) {
	d := servertest.StartDemo(t)
	n := newCutNetwork(t, d.URL)
	n.down.Store(true)
	alice := probesCut{shortPages{d.Client("alice"), pageSize}, d.ClientAt(n.URL, "alice")}
	h := newHarnessWith(t, alice, alice, theme.Options{Dark: true, NoColor: true}, 0)
	h.send(tea.WindowSizeMsg{Width: 240, Height: 48})
	h.gotoScreen("MFA policies")
	m := h.mfa()
	if m.err != "" || len(m.statuses) == 0 {
		t.Fatalf("the MFA status did not load (error %q, %d statuses):\n%s", m.err, len(m.statuses), h.frame())
	}
	h.key("s")
	var heading string
	for _, l := range strings.Split(h.frame(), "\n") {
		if strings.Contains(l, "MFA status of alice for pending activities") {
			heading = strings.TrimSpace(l)
		}
	}
	if !strings.Contains(heading, "whether older ones are pending is unknown (probe failed: ") {
		t.Errorf("a failed look for older pending activities is not said in the MFA status heading:\n%s", heading)
	}
}
