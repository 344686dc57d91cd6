package screens

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/ui/theme"
)

// With a user open, the status bar's refreshed time is the poll's that runs
// (the pending deletions), not the user list's load; p on Activities pauses
// that poll too, the bar says so, and p on Users resumes it.
func TestUsersOpenRecordPollIsReportedAndPaused(t *testing.T) {
	fake := &fakeClient{activities: sampleActivities(), users: governanceUsers()}
	now := testNow
	r := NewRoot(Options{Reader: fake, Submitter: fake, Profile: "demo", Theme: theme.Options{Dark: true, NoColor: true},
		Refresh: 5 * time.Second, Now: func() time.Time { return now }, Static: true,
		Tick: func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }})
	h := &harness{t: t, root: r, fake: fake}
	h.send(tea.WindowSizeMsg{Width: 120, Height: 30})
	h.run(r.Init())
	h.key("@Users")
	h.key("enter")
	u := h.root.screens[h.root.active].(*Users)
	if u.open == nil {
		t.Fatalf("no user open:\n%s", h.frame())
	}
	now = testNow.Add(2 * time.Minute)
	h.send(pendingRefreshMsg{gen: u.pendingTicks})
	if out := h.frame(); !strings.Contains(out, "refreshed "+now.Format("15:04:05")) || !strings.Contains(out, "auto 5s") {
		t.Errorf("after the poll at %s the bar does not say so:\n%s", now.Format("15:04:05"), out)
	}
	h.key("@Activities")
	h.key("p")
	h.key("@Users")
	out := h.frame()
	if !strings.Contains(out, "auto paused") {
		t.Errorf("paused on Activities, Users' bar does not say auto-refresh is paused:\n%s", out)
	}
	if u.polling() {
		t.Error("paused on Activities, the open user's poll still runs")
	}
	h.key("p")
	if out := h.frame(); !strings.Contains(out, "auto 5s") || !u.polling() {
		t.Errorf("p on Users did not resume the poll:\n%s", out)
	}
}
