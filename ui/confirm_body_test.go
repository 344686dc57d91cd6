package ui

import (
	"fmt"
	"strings"
	"testing"
)

// The dialog keeps its body wrapped between keystrokes, but a caller sets
// Warn after NewConfirm (the vote dialog does), may change a line in place,
// and draws at another width after a resize: each must show at once, never a
// body wrapped for what the dialog said before.
func TestConfirmShowsWhatWasChangedAfterItWasDrawn(t *testing.T) {
	var lines []string
	for i := range 40 {
		lines = append(lines, fmt.Sprintf("field %d: value", i))
	}
	const w, h = 60, 20
	c := NewConfirm("Approve this activity?", "Approve", lines...)
	unread, warned := c.Unread(w, h)
	if unread == 0 || warned != 0 {
		t.Fatalf("opened: %d lines unread, %d warnings; want some lines, no warning", unread, warned)
	}
	_ = c.View(plainTheme, w, h)

	c.Warn = map[int]bool{39: true}
	if _, warned := c.Unread(w, h); warned != 1 {
		t.Errorf("Warn set after the dialog was drawn: %d warnings unread, want 1", warned)
	}
	c.Warn[38] = true
	if _, warned := c.Unread(w, h); warned != 2 {
		t.Errorf("a warning added to Warn in place: %d warnings unread, want 2", warned)
	}

	before, _ := c.Unread(w, h)
	c.Lines[39] = "field 39: " + strings.Repeat("word ", 40) // wraps to several rows
	after, _ := c.Unread(w, h)
	if after <= before {
		t.Errorf("a line lengthened in place: %d rows unread, as before (%d)", after, before)
	}
	if view := c.View(plainTheme, w, h); !strings.Contains(view, fmt.Sprintf("%d more lines", after)) {
		t.Errorf("the view does not say the %d rows below:\n%s", after, view)
	}

	narrow, _ := c.Unread(30, h)
	if narrow <= after {
		t.Errorf("drawn narrower: %d rows unread, not more than at %d columns (%d)", narrow, w, after)
	}

	// A copy given other lines does not change what the first one shows.
	other := c
	other.Lines = []string{"one line"}
	if lines, _ := other.Unread(w, h); lines != 0 {
		t.Errorf("a copy with one line: %d rows unread", lines)
	}
	if again, _ := c.Unread(w, h); again != after {
		t.Errorf("after a copy was drawn with other lines: %d rows unread, want %d", again, after)
	}
}

// A warning line that stands for several ("⚠ … and 3 more warnings", the
// vote dialog's cap on a condition's warnings) is counted as those it stands
// for, by Unread and by the ↓ line: counted as one, the approver is told of
// fewer warnings than there are.
func TestConfirmCountsASummaryWarningAsTheWarningsItHolds(t *testing.T) {
	var lines []string
	for i := range 40 {
		lines = append(lines, fmt.Sprintf("field %d: value", i))
	}
	const w, h = 60, 20
	c := NewConfirm("Approve this activity?", "Approve", lines...)
	c.Warn = map[int]bool{38: true, 39: true}
	c.WarnWeight = map[int]int{39: 3}
	if _, warned := c.Unread(w, h); warned != 4 {
		t.Errorf("one warning and one standing for 3 below: Unread says %d warnings, want 4", warned)
	}
	if view := c.View(plainTheme, w, h); !strings.Contains(view, "(4 warnings)") {
		t.Errorf("the ↓ line does not count the 4 warnings below:\n%s", view)
	}
}
