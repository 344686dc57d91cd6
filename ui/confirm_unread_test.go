package ui

import (
	"fmt"
	"regexp"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// The notice y brings in a dialog not read to the end takes rows from the
// window itself: a count of unread lines taken before it is drawn would be
// wrong once it is, and would not follow the scrolling. Every count the
// dialog shows agrees with what is below the window, as drawn, before and
// after a scroll.
func TestUnreadNoticeCountsAgreeWithWhatIsDrawn(t *testing.T) {
	var lines []string
	for i := range 20 {
		lines = append(lines, fmt.Sprintf("field %d: value", i))
	}
	const w, h = 60, 20
	c := NewConfirm("Approve this activity?", "Approve", lines...)
	c.Notice = UnreadNotice
	counts := regexp.MustCompile(`(\d+) (?:more lines?|below)`)
	check := func(when string) {
		t.Helper()
		unread, _ := c.Unread(w, h)
		view := c.View(plainTheme, w, h)
		found := counts.FindAllStringSubmatch(view, -1)
		if len(found) == 0 {
			t.Fatalf("%s: the dialog does not say how many lines are below:\n%s", when, view)
		}
		for _, m := range found {
			if m[1] != fmt.Sprint(unread) {
				t.Errorf("%s: the dialog says %q, but %d lines are below the window:\n%s", when, m[0], unread, view)
			}
		}
	}
	check("opened")
	c.Scroll(tea.KeyPressMsg{Code: tea.KeyDown}, w, h)
	check("after ↓")
}
