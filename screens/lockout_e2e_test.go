package screens

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// When other members delete the key the console signs with, the next
// refresh of any screen (here Activities) says the profile is locked out and
// how to sign in again, not to check the key and the clock, and the
// auto-refresh stops: every poll could only fail. Against the local service.
func TestEndToEndAnotherMembersVoteLocksTheConsoleOut(t *testing.T) {
	d := servertest.StartDemo(t)
	c := d.Client("operator")
	h := newHarnessWith(t, c, c, theme.Options{Dark: true, NoColor: true}, 30*time.Second)
	h.send(tea.WindowSizeMsg{Width: 160, Height: 48})
	if h.activities().Status().AutoRefresh == 0 {
		t.Fatalf("the console does not auto-refresh to begin with:\n%s", h.frame())
	}

	deleteOwnKey(t, d, "operator")

	h.send(activitiesTickMsg{gen: h.activities().autoGen})
	f, e := h.frame(), h.activities().Status().Err
	if !strings.Contains(f, "locked out") || !strings.Contains(e, "locked out") || !strings.Contains(e, "vigil login oauth") {
		t.Errorf("the refresh after the key's deletion does not say the profile is locked out and how to sign in again: %q\n%s", e, f)
	}
	if strings.Contains(e, "clock") {
		t.Errorf("the console advises checking the clock, which cannot help: %q", e)
	}
	if st := h.activities().Status(); st.AutoRefresh != 0 || st.AutoPaused {
		t.Errorf("the auto-refresh still runs (every %v) or is said paused (%v) after the lock-out", st.AutoRefresh, st.AutoPaused)
	}
	if cmd := h.activities().tick(); cmd != nil {
		t.Errorf("the Activities screen still schedules polls after the lock-out")
	}
}
