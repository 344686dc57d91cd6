package screens

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

var (
	moreAbove = regexp.MustCompile(`↑ \d+ above`)
	moreBelow = regexp.MustCompile(`↓ \d+ below`)
)

// editorSizes are the windows the editors are tried in: the root's minimum,
// a little more, and a tall one.
var editorSizes = []tea.WindowSizeMsg{{Width: minWidth, Height: minHeight}, {Width: 80, Height: minHeight}, {Width: 100, Height: 20}, {Width: 160, Height: 48}}

// shortBodies are bodies shorter than the root's minimum window leaves: the
// screen draws in what it is given.
var shortBodies = [][2]int{{80, 12}, {80, 16}, {100, 20}}

// fitsWindow fails unless the frame is exactly the window's lines, none wider.
func fitsWindow(t *testing.T, h *harness, size tea.WindowSizeMsg) {
	t.Helper()
	out := h.frame()
	lines := strings.Split(out, "\n")
	if len(lines) != size.Height {
		t.Errorf("%dx%d: the frame is %d lines:\n%s", size.Width, size.Height, len(lines), out)
	}
	for i, l := range lines {
		if w := ansi.StringWidth(l); w > size.Width {
			t.Errorf("%dx%d: line %d is %d cells wide: %q", size.Width, size.Height, i, w, l)
		}
	}
}

// screenIn is what s draws in a body of width x height, each line checked
// to fit.
func screenIn(t *testing.T, s Screen, width, height int) string {
	t.Helper()
	s.SetSize(width, height)
	out := ansi.Strip(s.View())
	lines := strings.Split(out, "\n")
	if len(lines) > height {
		t.Errorf("in a body of %dx%d the editor is %d lines:\n%s", width, height, len(lines), out)
	}
	for i, l := range lines {
		if w := ansi.StringWidth(l); w > width {
			t.Errorf("in a body of %dx%d line %d is %d cells wide: %q", width, height, i, w, l)
		}
	}
	return out
}

// The MFA editor in a short window: on the last of many steps, the marks say
// lines are hidden above it, and the step, the error of a refused submit and
// the keys stay in sight; back on the first field, a mark says lines are
// hidden below. Nothing drawn is taller or wider than its room.
func TestEndToEndMfaEditorMarksHiddenLinesInAShortWindow(t *testing.T) {
	d := servertest.StartDemo(t)
	down := d.ClientAt(deadURL(t), "alice")
	h := newHarnessWith(t, d.Client("alice"), down, theme.Options{Dark: true, NoColor: true}, 0)
	h.send(tea.WindowSizeMsg{Width: 160, Height: 48}) // the confirm in full
	h.gotoScreen("MFA policies")
	h.key("n")
	h.typeText("many steps")
	ctrlT := tea.KeyPressMsg{Code: 't', Mod: tea.ModCtrl}
	h.send(ctrlT)
	const steps = 9
	for range steps - 1 {
		h.key("a")
	}
	h.submitAndConfirm() // refused: the service cannot be reached
	if h.mfa().editor == nil || h.mfa().editor.err == "" {
		t.Fatalf("setup: the submit should fail with the editor open:\n%s", h.frame())
	}
	lastStep := fmt.Sprintf("▸ step %d: any of [PASSKEY]", steps)
	for _, size := range editorSizes {
		h.send(size)
		out := h.frame()
		for _, want := range []string{"New MFA policy for", lastStep, "ctrl+s create", "esc cancel"} {
			if !strings.Contains(out, want) {
				t.Errorf("%dx%d, on the last step: %q is not in sight:\n%s", size.Width, size.Height, want, out)
			}
		}
		// In the editor, not only in the notice, which goes away.
		if body := ansi.Strip(h.mfa().View()); !strings.Contains(body, "cannot connect") {
			t.Errorf("%dx%d, on the last step: the editor does not show the error:\n%s", size.Width, size.Height, out)
		}
		if size.Height < 48 && !moreAbove.MatchString(out) {
			t.Errorf("%dx%d, on the last step: no mark says lines are hidden above:\n%s", size.Width, size.Height, out)
		}
		fitsWindow(t, h, size)
	}
	for _, b := range shortBodies {
		out := screenIn(t, h.mfa(), b[0], b[1])
		for _, want := range []string{lastStep, "cannot connect"} {
			if !strings.Contains(out, want) {
				t.Errorf("in a body of %dx%d, on the last step: %q is not in sight:\n%s", b[0], b[1], want, out)
			}
		}
		if !moreAbove.MatchString(out) {
			t.Errorf("in a body of %dx%d, on the last step: no mark says lines are hidden above:\n%s", b[0], b[1], out)
		}
	}

	h.send(ctrlT) // back to the fields: Name, the first
	for _, size := range editorSizes[:3] {
		h.send(size)
		out := h.frame()
		if !strings.Contains(out, "▸ Name") || !moreBelow.MatchString(out) || moreAbove.MatchString(out) {
			t.Errorf("%dx%d, on the first field: want it and only a mark for lines below:\n%s", size.Width, size.Height, out)
		}
		fitsWindow(t, h, size)
	}
	for _, b := range shortBodies {
		if out := screenIn(t, h.mfa(), b[0], b[1]); !strings.Contains(out, "▸ Name") || !moreBelow.MatchString(out) {
			t.Errorf("in a body of %dx%d, on the first field: want it and a mark for lines below:\n%s", b[0], b[1], out)
		}
	}
}

// The policy editor in a short window, with a long condition and consensus
// and a refused submit: the focused field, the error saying why and the keys
// stay in sight, with a mark for the hidden lines. Nothing drawn is taller or
// wider than its room.
func TestEndToEndPolicyEditorKeepsTheErrorInAShortWindow(t *testing.T) {
	d := servertest.StartDemo(t)
	down := d.ClientAt(deadURL(t), "alice")
	h := newHarnessWith(t, d.Client("alice"), down, theme.Options{Dark: true, NoColor: true}, 0)
	h.send(tea.WindowSizeMsg{Width: 160, Height: 48}) // the confirm in full
	h.gotoScreen("Policies")
	h.key("n")
	h.typeText("long draft")
	h.key("tab")
	h.key("tab")
	h.typeText("activity.resource == 'POLICY' && activity.action == 'CREATE' && activity.type != 'ACTIVITY_TYPE_DELETE_USERS'")
	h.key("tab")
	h.typeText("approvers.count() >= 2 && approvers.any(a, a.tags.contains('security')) && approvers.all(a, a.name != 'mallory')")
	for range 3 {
		h.key("shift+tab")
	}
	h.submitAndConfirm() // refused: the service cannot be reached
	p := h.policies()
	if p.editor == nil || p.editor.err == "" {
		t.Fatalf("setup: the submit should fail with the editor open:\n%s", h.frame())
	}
	for _, size := range editorSizes {
		h.send(size)
		out := h.frame()
		for _, want := range []string{"New policy", "▸ Name", "ctrl+s submit", "esc cancel"} {
			if !strings.Contains(out, want) {
				t.Errorf("%dx%d, on Name after a refused submit: %q is not in sight:\n%s", size.Width, size.Height, want, out)
			}
		}
		// In the editor, not only in the notice, which goes away.
		if body := ansi.Strip(p.View()); !strings.Contains(body, "cannot connect") {
			t.Errorf("%dx%d, on Name: the editor does not show the error:\n%s", size.Width, size.Height, out)
		}
		if size.Height < 48 && !moreBelow.MatchString(out) {
			t.Errorf("%dx%d, on Name: no mark says lines are hidden below:\n%s", size.Width, size.Height, out)
		}
		fitsWindow(t, h, size)
	}
	for _, b := range shortBodies {
		out := screenIn(t, p, b[0], b[1])
		for _, want := range []string{"▸ Name", "cannot connect"} {
			if !strings.Contains(out, want) {
				t.Errorf("in a body of %dx%d, on Name: %q is not in sight:\n%s", b[0], b[1], want, out)
			}
		}
		// The editor ends with the simulation's prompt: in sight, or counted.
		if !strings.Contains(out, "press ctrl+r to run") && !moreBelow.MatchString(out) {
			t.Errorf("in a body of %dx%d, on Name: no mark says lines are hidden below:\n%s", b[0], b[1], out)
		}
	}

}

// The policy editor in a short window, simulated on its last field: the
// simulation's rows shrink to the room left under the field and count the
// rest, under a mark for the fields hidden above. Nothing drawn is taller or
// wider than its room.
func TestEndToEndPolicySimulationShrinksInAShortWindow(t *testing.T) {
	d := servertest.StartDemo(t)
	h := demoHarness(t, d, nil)
	h.gotoScreen("Policies")
	h.key("n")
	h.typeText("deny everything")
	h.key("tab")
	h.key("right") // deny
	for range 5 {
		h.key("tab")
	}
	h.key("ctrl+r")
	p := h.policies()
	if len(p.editor.sim) < 2 {
		t.Fatalf("setup: the demo should have activities to simulate over (%q)", p.editor.simErr)
	}
	for _, size := range editorSizes[:3] {
		h.send(size)
		out := h.frame()
		for _, want := range []string{"New policy", "▸ Simulate over", "Simulation", "more activities", "ctrl+r simulate"} {
			if !strings.Contains(out, want) {
				t.Errorf("%dx%d, simulated on the last field: %q is not in sight:\n%s", size.Width, size.Height, want, out)
			}
		}
		if !moreAbove.MatchString(out) || moreBelow.MatchString(out) {
			t.Errorf("%dx%d, on the last field: want only a mark for lines hidden above:\n%s", size.Width, size.Height, out)
		}
		fitsWindow(t, h, size)
	}
	for _, b := range shortBodies {
		if out := screenIn(t, p, b[0], b[1]); !strings.Contains(out, "▸ Simulate over") || !strings.Contains(out, "more activities") {
			t.Errorf("in a body of %dx%d, simulated on the last field: the field or the count of rows left out is not in sight:\n%s", b[0], b[1], out)
		}
	}
}
