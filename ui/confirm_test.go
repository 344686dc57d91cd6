package ui

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// dialogText is the text inside a dialog's frame, one string per line, with
// the frame and the padding removed.
func dialogText(view string) []string {
	var out []string
	for _, l := range strings.Split(ansi.Strip(view), "\n") {
		l = strings.TrimSpace(l)
		l = strings.TrimPrefix(strings.TrimSuffix(l, "│"), "│")
		out = append(out, strings.TrimSpace(l))
	}
	return out
}

// What a voter reads before signing is not cut mid-word: an id, a part of a
// condition, a quoted name that fits on the dialog's line is on one line; only
// the fingerprint, longer than a line, is broken.
func TestConfirmNeverBreaksAWordThatFits(t *testing.T) {
	id := "01a209a7-8073-7c99-95f4-8a49f9acd2c7"
	lines := []string{
		"condition:   activity.type in ['ACTIVITY_TYPE_CREATE_INVITATIONS','ACTIVITY_TYPE_DELETE_TVC_DEPLOYMENT']&&activity.resource == 'USER'",
		"consensus:   approvers.any(user, user.tags.contains('" + id + "')) || approvers.filter(u, u.id == '" + id + "').count() >= 2",
		`policy:      "Operator changes need two ops approvers, deploym\u0435nts reviewed by the treasury team"`,
		"fingerprint: sha256:73a6e2f6ba2784ab61ba2677e47f4aa7e98d811df4780560f1b1947276c91d27",
	}
	for _, width := range []int{60, 80, 160} {
		text := dialogText(NewConfirm("Approve this activity?", "Approve", lines...).View(plainTheme, width, 0))
		inner := confirmInner(width) - len("condition:   ")
		flat := " " + strings.Join(text, " ") + " "
		for _, l := range lines {
			_, value, _ := strings.Cut(l, ":")
			for _, word := range strings.Fields(strings.NewReplacer(",", ", ", "&&", "&& ", "||", "|| ").Replace(value)) {
				if ansi.StringWidth(word) > inner {
					continue
				}
				if !strings.Contains(flat, word) {
					t.Errorf("at %d columns %q is not whole on a line:\n%s", width, word, strings.Join(text, "\n"))
				}
			}
		}
		if !strings.Contains(strings.ReplaceAll(strings.Join(text, ""), "↩", ""), "sha256:73a6e2f6ba2784ab61ba2677e47f4aa7e98d811df4780560f1b1947276c91d27") {
			t.Errorf("at %d columns the fingerprint is not all there:\n%s", width, strings.Join(text, "\n"))
		}
	}
}

// The dialog's blank lines and its line of keys give way before what is
// being confirmed scrolls: in a short window it shows all the lines it can,
// and with room to spare it keeps its air.
func TestConfirmChromeGivesWayBeforeTheTextScrolls(t *testing.T) {
	var lines []string
	for i := range 13 {
		lines = append(lines, fmt.Sprintf("field %02d:    value %02d", i, i))
	}
	c := NewConfirm("Approve this activity?", "Approve", lines...)
	shown := func(view string) int { return strings.Count(ansi.Strip(view), "value ") }
	// 14 lines: the body of a 60×18 window under a dialog.
	view := c.View(plainTheme, 60, 14)
	if n := lipgloss.Height(view); n > 14 {
		t.Fatalf("the dialog is %d lines in 14:\n%s", n, view)
	}
	if n := shown(view); n < 9 {
		t.Errorf("%d of 13 lines show in a window of 14:\n%s", n, view)
	}
	if !strings.Contains(view, "↓") {
		t.Errorf("the dialog does not say lines are hidden:\n%s", view)
	}
	// 18 lines: all 13 fit once the blank lines go.
	if view := c.View(plainTheme, 60, 18); shown(view) != 13 || strings.Contains(view, "↓") {
		t.Errorf("13 lines do not all show in 18:\n%s", view)
	}
	// Room to spare: the full dialog, with its line of keys.
	if view := c.View(plainTheme, 60, 40); shown(view) != 13 || !strings.Contains(view, "y confirms") ||
		dialogText(view)[1] != "" {
		t.Errorf("the roomy dialog lost its blank lines:\n%s", view)
	}
	// The help names the scroll keys in one item, so it stays one line.
	c.Keys.Scrolls = true
	if n := len(c.Keys.ShortHelp()); n != 3 {
		t.Errorf("the short help has %d items, want y, n and scroll", n)
	}
}

// A dialog that changed while open (Restate) shows every changed line before
// y answers: scrolled below the change, the window moves up to it; above the
// change, it stays where it is (the lines between were never on screen) and
// the change is unread below it.
func TestConfirmRestateShowsTheChangedLineBeforeYAnswers(t *testing.T) {
	var lines []string
	for i := range 30 {
		lines = append(lines, fmt.Sprintf("field %02d:    value %02d", i, i))
	}
	const w, h = 60, 14
	pgdown := tea.KeyPressMsg{Code: tea.KeyPgDown}
	c := NewConfirm("Approve this activity?", "Approve", lines...)
	for range 10 {
		c.Scroll(pgdown, w, h)
	}
	if n, _ := c.Unread(w, h); n != 0 {
		t.Fatalf("set-up: read to the end, %d lines unread", n)
	}
	changed := slices.Clone(lines)
	changed[2] = "field 02:    CHANGED"
	c.Restate(NewConfirm("Approve this activity?", "Approve", changed...))
	if view := c.View(plainTheme, w, h); !strings.Contains(view, "CHANGED") {
		t.Errorf("the changed line is above the window, not on screen:\n%s", view)
	}
	if n, _ := c.Unread(w, h); n == 0 {
		t.Errorf("after a restate nothing is unread: y would answer without the lines below the change read again")
	}

	// At the top, a change far below: the window does not jump over the
	// lines between, and the change counts as unread.
	c = NewConfirm("Approve this activity?", "Approve", lines...)
	changed = slices.Clone(lines)
	changed[28] = "field 28:    CHANGED"
	c.Restate(NewConfirm("Approve this activity?", "Approve", changed...))
	if view := c.View(plainTheme, w, h); !strings.Contains(view, "field 00") {
		t.Errorf("the window skipped lines never read to reach the change:\n%s", view)
	}
	if n, _ := c.Unread(w, h); n == 0 {
		t.Errorf("the change below the window is not unread")
	}
}

// After a restate the terminal is resized: the changed line must still be on
// screen, or counted unread, until it has been on screen. Lines wrap into
// fewer rows when wider, so a window kept as a row of the old layout would
// fall below the change at the new width with nothing unread, and y y would
// answer a change never seen.
func TestConfirmRestateThenResizeKeepsTheChangeUnread(t *testing.T) {
	var lines []string
	for i := range 40 {
		lines = append(lines, fmt.Sprintf("field %02d: %s", i, strings.Repeat("word ", 10)))
	}
	const narrow, wide, h = 40, 100, 14
	pgdown := tea.KeyPressMsg{Code: tea.KeyPgDown}
	for _, c := range []struct {
		name    string
		changed int
		widths  []int // [0]: read to the end and restated; then resized to [1] before it is drawn; a page down at each
	}{
		{"widened", 20, []int{narrow, wide}},
		{"narrowed", 20, []int{wide, narrow}},
		{"widened, change near the end", 37, []int{narrow, wide}},
		{"narrowed then widened", 20, []int{wide, narrow, wide}},
		{"widened then narrowed", 10, []int{narrow, wide, wide, narrow, narrow}},
		{"not resized", 20, []int{narrow}},
		{"resized at every page", 5, []int{narrow, wide, narrow, wide, narrow, wide, narrow, wide}},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := NewConfirm("Approve this activity?", "Approve", lines...)
			for range 40 {
				d.Scroll(pgdown, c.widths[0], h)
			}
			changed := slices.Clone(lines)
			changed[c.changed] = fmt.Sprintf("field %02d: CHANGED", c.changed)
			d.Restate(NewConfirm("Approve this activity?", "Approve", changed...))
			seen := false
			for step := 0; ; step++ {
				w := c.widths[min(step+1, len(c.widths)-1)]
				view := d.View(plainTheme, w, h)
				seen = seen || strings.Contains(view, "CHANGED")
				n, _ := d.Unread(w, h)
				if n == 0 {
					if !seen {
						t.Fatalf("at width %d (step %d), the changed line was never on screen and nothing is unread: y answers:\n%s", w, step, view)
					}
					return
				}
				if step > 100 {
					t.Fatalf("still %d lines unread after 100 pages down", n)
				}
				d.Scroll(pgdown, w, h)
			}
		})
	}
}

// Restated and drawn at a narrow width, the change on screen; the terminal
// widens before any key: no key was pressed with the change in front of the
// user, so the window must not have moved past it.
func TestConfirmRestateThenWidenKeepsTheChangeOnScreen(t *testing.T) {
	var lines []string
	for i := range 40 {
		lines = append(lines, fmt.Sprintf("field %02d: %s", i, strings.Repeat("word ", 10)))
	}
	const narrow, wide, h = 40, 100, 14
	pgdown := tea.KeyPressMsg{Code: tea.KeyPgDown}
	c := NewConfirm("Approve this activity?", "Approve", lines...)
	for range 40 {
		c.Scroll(pgdown, narrow, h)
	}
	changed := slices.Clone(lines)
	changed[20] = "field 20: CHANGED"
	c.Restate(NewConfirm("Approve this activity?", "Approve", changed...))
	if view := c.View(plainTheme, narrow, h); !strings.Contains(view, "CHANGED") {
		t.Fatalf("set-up: at the restate's width the change is on screen:\n%s", view)
	}
	view := c.View(plainTheme, wide, h)
	n, _ := c.Unread(wide, h)
	if !strings.Contains(view, "CHANGED") && n == 0 {
		t.Errorf("after widening, the changed line is above the window and nothing is unread (y answers):\n%s", view)
	}
}
