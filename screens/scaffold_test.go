package screens

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/ui"
)

// A toast leaves the tab bar and the screen's body as they were: it sits in the
// help lines.
func TestToastsNeverCoverTheScreen(t *testing.T) {
	h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 0)
	h.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	before := strings.Split(h.root.Render(), "\n")
	h.send(ui.ToastMsg{Text: strings.Repeat("a long notice ", 10)})
	after := strings.Split(h.root.Render(), "\n")
	body := 1 + h.root.bodyH
	for i := range body {
		if before[i] != after[i] {
			t.Errorf("line %d changed under a toast:\nbefore %q\nafter  %q", i, before[i], after[i])
		}
	}
	if !strings.Contains(strings.Join(after[body:], "\n"), "a long notice") {
		t.Error("the toast does not show")
	}
}

// The root sizes the screens (SetSize) when the window or the lines around the
// body change; View changes nothing, so two renders are the same.
func TestScreensAreSizedByTheRoot(t *testing.T) {
	h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 30*time.Second)
	h.send(tea.WindowSizeMsg{Width: 120, Height: 40})
	a := h.activities()
	if a.width != 120 || a.height != h.root.bodyH || h.root.bodyH <= 0 {
		t.Fatalf("Activities sized %dx%d, the body is 120x%d", a.width, a.height, h.root.bodyH)
	}
	short := h.root.bodyH
	h.key("?") // the full help takes more lines: the body shrinks
	if h.root.bodyH >= short || a.height != h.root.bodyH {
		t.Errorf("full help: body %d (was %d), Activities told %d", h.root.bodyH, short, a.height)
	}
	h.key("?")
	h.key("enter")
	if first, second := h.root.Render(), h.root.Render(); first != second {
		t.Error("rendering twice gives two frames: View has side effects")
	}
	if got := strings.Count(h.root.Render(), "\n") + 1; got != 40 {
		t.Errorf("frame has %d lines at 120x40", got)
	}
}
