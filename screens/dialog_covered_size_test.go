package screens

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/ui"
)

type coveredYesMsg struct{}

// A dialog under another one is sized with the top one but never drawn. Its
// window grown twice while covered was counted as on screen, so after the
// window shrank back and the cover closed (a failed submit's form reopened
// over a vote dialog, the terminal dragged larger and back), y answered with
// lines no frame had shown, a warning among them.
func TestCoveredDialogNeverCountsAnUndrawnWindowAsRead(t *testing.T) {
	h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 0)
	h.send(tea.WindowSizeMsg{Width: 100, Height: 30})
	var lines []string
	for i := range 34 {
		lines = append(lines, fmt.Sprintf("line %02d of what is voted on", i))
	}
	lines = append(lines, "!! LAST-LINE-WARNING: this vote deletes the quorum's keys")
	a := NewConfirmDialogMsg("covered-a", ui.NewConfirm("Approve?", "approve", lines...), coveredYesMsg{}, nil)
	h.send(OpenDialogMsg{Dialog: a})
	if drawn := h.frame(); strings.Contains(drawn, "LAST-LINE-WARNING") {
		t.Fatalf("setup: the whole dialog fits:\n%s", drawn)
	}
	h.send(OpenDialogMsg{Dialog: NewConfirmDialog("covered-b", ui.NewConfirm("Other?", "ok", "short"), nil, nil)})
	for _, height := range []int{60, 80, 30} { // a is drawn at none of these
		h.send(tea.WindowSizeMsg{Width: 100, Height: height})
		if strings.Contains(h.frame(), "LAST-LINE-WARNING") {
			t.Fatalf("setup: the covered dialog was drawn at 100x%d", height)
		}
	}
	h.send(CloseDialogMsg{ID: "covered-b"})
	after := h.frame()
	if strings.Contains(after, "LAST-LINE-WARNING") {
		t.Fatalf("setup: the warning is on screen now:\n%s", after)
	}
	h.key("y")
	if h.root.dialogs.Top() != a {
		t.Fatalf("y answered though the warning line was never drawn in any frame; frame at y:\n%s", after)
	}
	// Scrolled to the end, drawn at each step, the same y answers.
	for range len(lines) {
		if strings.Contains(h.frame(), "LAST-LINE-WARNING") {
			break
		}
		h.key("down")
	}
	h.key("y")
	if h.root.dialogs.Len() != 0 {
		t.Fatalf("y did not answer once every line had been drawn:\n%s", h.frame())
	}
}
