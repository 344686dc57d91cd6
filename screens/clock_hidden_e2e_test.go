package screens

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// clockedDemoHarness is a console on the local service whose clock is *now
// (this machine's time at first), every screen visited once so that each
// has loaded, and Activities showing.
func clockedDemoHarness(t *testing.T, d *servertest.Demo) (*harness, *time.Time) {
	t.Helper()
	now := new(time.Time)
	*now = time.Now()
	c := d.Client("alice")
	r := NewRoot(Options{Reader: c, Submitter: c, Profile: "demo", Theme: theme.Options{Dark: true, NoColor: true},
		Now: func() time.Time { return *now }, Static: true, Proofs: ProofSettings{Apps: d.Info.EnclaveApps},
		Tick: func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }})
	h := &harness{t: t, root: r}
	h.send(tea.WindowSizeMsg{Width: 160, Height: 48})
	h.run(r.Init())
	for _, s := range r.screens {
		h.gotoScreen(s.Title())
	}
	h.gotoScreen("Activities")
	return h, now
}

// A clock tick redraws only the screen on show: a hidden screen's rows (the
// Policies and Users screens' can be thousands) wait until it is shown, so
// that the tick does not freeze the keys of the screen the member is on.
func TestClockTickLeavesHiddenScreensUntilShown(t *testing.T) {
	d := servertest.StartDemo(t)
	h, now := clockedDemoHarness(t, d)
	h.gotoScreen("Organization")
	before := map[string]string{}
	for _, s := range h.root.screens {
		before[s.Title()] = s.View()
	}
	*now = now.Add(3 * time.Hour)
	h.send(clockMsg{})
	for _, s := range h.root.screens {
		if s.Title() == "Organization" {
			continue
		}
		if after := s.View(); after != before[s.Title()] {
			t.Errorf("a tick redrew the hidden %s screen:\n%s\nwas:\n%s", s.Title(), after, before[s.Title()])
		}
	}
	h.gotoScreen("Policies")
	if h.policies().View() == before["Policies"] {
		t.Errorf("shown after the tick, the Policies screen still shows the ages of 3 h before:\n%s", h.frame())
	}
}

// A screen hidden at a tick shows, when it appears, exactly what a screen
// redrawn at every tick would: its rows, its open detail and its status,
// whichever screen, however it is shown (a number key here; a tab, a jump
// and a click go through the same Root.Update).
func TestScreenShownAfterHiddenTicksIsUpToDate(t *testing.T) {
	d := servertest.StartDemo(t)
	h, now := clockedDemoHarness(t, d)
	// Open records on Policies and Users, so that their ages and keys'
	// expiry are hidden with them.
	h.gotoScreen("Policies")
	h.key("enter")
	if !h.policies().list.IsOpen() {
		t.Fatalf("set-up: no policy detail open:\n%s", h.frame())
	}
	h.openUser("alice")
	for _, s := range h.root.screens {
		title := s.Title()
		away := "Organization"
		if title == away {
			away = "Activities"
		}
		h.gotoScreen(away)
		*now = now.Add(3 * time.Hour)
		h.send(clockMsg{})
		h.send(clockMsg{}) // two ticks missed
		h.gotoScreen(title)
		shown := h.frame()
		h.send(clockMsg{}) // a tick seen: what every tick used to do to every screen
		if redrawn := h.frame(); shown != redrawn {
			t.Errorf("%s shown after hidden ticks:\n%s\nredrawn by a tick at the same time:\n%s", title, shown, redrawn)
		}
	}
}
