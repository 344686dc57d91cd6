package ui

import (
	"strings"
	"testing"
)

// The line under a scrolled dialog counts the warnings below it, not the
// rows they wrap onto: one warning wrapped onto many rows of a narrow dialog
// (the vote dialog's MFA warning at 60 columns) is "1 warning", never "9".
func TestConfirmCountsWarningsBelowNotTheirRows(t *testing.T) {
	lines := []string{"type: CREATE_INVITATIONS"}
	for range 20 {
		lines = append(lines, "field: value")
	}
	lines = append(lines, "MFA: "+strings.Repeat("your MFA policy applies and one vote cannot meet it ", 6))
	c := NewConfirm("Approve this activity?", "Approve", lines...)
	c.Warn = map[int]bool{len(lines) - 1: true}
	const w, h = 60, 16
	view := c.View(plainTheme, w, h)
	if !strings.Contains(view, "(1 warning)") {
		t.Errorf("one warning below the window is not counted as one:\n%s", view)
	}
	if _, warned := c.Unread(w, h); warned != 1 {
		t.Errorf("Unread counts %d warnings unread, want 1 (one line, wrapped)", warned)
	}
}
