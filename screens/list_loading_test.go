package screens

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vigil-console/vigil/ui/theme"
)

// Before a list's first reply, its screen says it is loading, never that
// there is nothing: a member who opens the console to see what needs a vote
// must not be told, for as long as the service takes, that nothing does.

// startedConsole is a console whose first loads were sent and whose replies
// have not arrived (their commands are not run).
func startedConsole(t *testing.T) *Root {
	t.Helper()
	fake := &fakeClient{activities: sampleActivities()}
	r := NewRoot(Options{Reader: fake, Submitter: fake, Profile: "demo", Theme: theme.Options{Dark: true, NoColor: true},
		Now: func() time.Time { return testNow }, Static: true,
		Tick: func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }})
	r.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	_ = r.Init()
	return r
}

func TestPendingListSaysLoadingBeforeItsFirstReply(t *testing.T) {
	frame := startedConsole(t).Render()
	if strings.Contains(frame, "no pending activities") {
		t.Errorf("before the first reply, the console says there is nothing pending:\n%s", frame)
	}
	if !strings.Contains(frame, "loading the pending activities…") {
		t.Errorf("before the first reply, want the list to say it is loading:\n%s", frame)
	}
}

func TestViewToggleSaysLoadingUntilTheReply(t *testing.T) {
	h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 0)
	if !strings.Contains(h.root.Render(), "CONSENSUS_NEEDED") {
		t.Fatalf("setup: want pending rows:\n%s", h.root.Render())
	}
	h.root.Update(keyPress("v")) // the reload is on its way: not run
	frame := h.root.Render()
	if strings.Contains(frame, "no activities match") || strings.Contains(frame, "no pending activities") {
		t.Errorf("while the list reloads, the console says nothing matches:\n%s", frame)
	}
	if !strings.Contains(frame, "loading the activities…") {
		t.Errorf("while the list reloads, want it to say so:\n%s", frame)
	}
}

func TestListScreensSayLoadingBeforeTheirFirstReply(t *testing.T) {
	r := startedConsole(t)
	for _, c := range []struct{ key, claim, loading, title string }{
		{"4", "no policies", "loading the policies…", "Policies  …"},
		{"5", "no users", "loading the users…", "Users  … users"},
		{"6", "no MFA policies for this user", "loading the MFA policies…", "MFA policies  …, in order"},
	} {
		r.Update(keyPress(c.key)) // commands not run: every reply still on its way
		frame := r.Render()
		// Nor does its title count none (audit 220, L6).
		if plain := ansi.Strip(frame); !strings.Contains(plain, c.title) || strings.Contains(plain, "  0") {
			t.Errorf("screen %s: want the title %q, with no count of 0, before its first reply:\n%s", c.key, c.title, frame)
		}
		if strings.Contains(frame, c.claim) {
			t.Errorf("screen %s says %q before its first reply:\n%s", c.key, c.claim, frame)
		}
		if !strings.Contains(frame, c.loading) {
			t.Errorf("screen %s: want %q before its first reply:\n%s", c.key, c.loading, frame)
		}
	}
	// The MFA screen waits for the organization (who you are) before it
	// sends its own load: its status bar says so meanwhile.
	if frame := r.Render(); !strings.Contains(frame, "loading who you are…") {
		t.Errorf("MFA screen: want a busy status while who you are is read:\n%s", frame)
	}
}
