package screens

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vigil-console/vigil/ui"
)

// helpAndNotices are the frame's lines under the body: the notice line(s) and
// the help, without the status bar.
func helpAndNotices(h *harness) []string {
	lines := strings.Split(h.frame(), "\n")
	_, _, bodyH := h.root.layout()
	return lines[1+bodyH : len(lines)-1]
}

// A notice never cuts the help: every key is shown whole while it shows, and
// the body keeps its height (a one-line notice moves nothing).
func TestNoticesNeverCutTheHelp(t *testing.T) {
	h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 0)
	h.send(tea.WindowSizeMsg{Width: 120, Height: 35})
	quiet := helpAndNotices(h)
	_, _, bodyBefore := h.root.layout()
	h.send(ui.ToastMsg{Text: "approved CREATE_USER_TAG: now COMPLETED"})
	h.send(ui.ToastMsg{Text: "completed after bob's approval: create policy 'Read-only audit'"})
	loud := helpAndNotices(h)
	if _, _, bodyAfter := h.root.layout(); bodyAfter != bodyBefore {
		t.Errorf("one-line notices changed the body from %d to %d lines", bodyBefore, bodyAfter)
	}
	if strings.Join(quiet[1:], "\n") != strings.Join(loud[1:], "\n") {
		t.Errorf("the help changed while notices show:\n%s\n---\n%s", strings.Join(quiet, "\n"), strings.Join(loud, "\n"))
	}
	help := strings.Join(loud[1:], "\n")
	for _, want := range []string{"v pending/all", "o sort", "r refresh", "m messages", "? help", "q quit"} {
		if !strings.Contains(help, want) {
			t.Errorf("the help lacks %q while notices show:\n%s", want, help)
		}
	}
	if strings.Contains(help, "…") {
		t.Errorf("the help is cut:\n%s", help)
	}
	for _, want := range []string{"✓ approved CREATE_USER_TAG: now COMPLETED", "✓ completed after bob's approval"} {
		if !strings.Contains(loud[0], want) {
			t.Errorf("the notice line lacks %q: %q", want, loud[0])
		}
	}
}

// In a form, where the help is one line and the messages view is not a key
// away, a long notice is read whole: it takes up to three lines.
func TestLongNoticeIsReadWholeInAForm(t *testing.T) {
	h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 0)
	h.send(tea.WindowSizeMsg{Width: 100, Height: 30})
	openOperation(h, "create invitations")
	long := "create_invitations failed: submit/create_invitations: outcome unknown: the request was sent, but no reply came " +
		"whether the service recorded it (the connection to 127.0.0.1:18001 failed: EOF); check before submitting again"
	h.send(ui.ToastMsg{Text: long, Bad: true})
	frame := strings.Join(strings.Fields(h.frame()), " ")
	if !strings.Contains(frame, strings.Join(strings.Fields(long), " ")) {
		t.Errorf("the long notice is cut:\n%s", h.frame())
	}
	for _, l := range strings.Split(h.frame(), "\n") {
		if ansi.StringWidth(l) > 100 {
			t.Errorf("a line is wider than the window: %q", l)
		}
	}
}

// Notices that do not fit the notice line are counted on it, with where to
// read them, so none is hidden without a word: beside short ones, beside a
// wrapped one, and in a form, where the messages key types text.
func TestNoticesThatDoNotFitAreCounted(t *testing.T) {
	notices := []string{
		"copied id act-policy-0001 to the clipboard",
		"approved CREATE_USER_TAG: now COMPLETED",
		"rejected SET_ORGANIZATION_FEATURE: now REJECTED",
	}
	// seen is how many of the notices the lines show or count.
	seen := func(lines []string) (shown, counted int) {
		text := strings.Join(lines, "\n")
		for _, n := range notices {
			if strings.Contains(strings.Join(strings.Fields(text), " "), n) {
				shown++
			}
		}
		if i := strings.Index(text, "+"); i >= 0 {
			fmt.Sscanf(text[i:], "+%d more", &counted)
		}
		return shown, counted
	}
	h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 0)
	h.send(tea.WindowSizeMsg{Width: 60, Height: 18})
	for _, n := range notices {
		h.send(ui.ToastMsg{Text: n})
	}
	lines := helpAndNotices(h)
	// The count takes a line of its own when it does not fit beside the newest.
	noticeLines := lines[:len(h.root.notices(60))]
	if shown, counted := seen(noticeLines); shown+counted != len(notices) || counted == 0 {
		t.Errorf("%d notices shown and %d counted of %d:\n%s", shown, counted, len(notices), strings.Join(lines, "\n"))
	}
	if !strings.Contains(strings.Join(noticeLines, "\n"), "more · m messages") {
		t.Errorf("the notice lines do not say where the others are:\n%s", strings.Join(noticeLines, "\n"))
	}
	for _, l := range lines {
		if ansi.StringWidth(l) > 60 {
			t.Errorf("a line is wider than the window: %q", l)
		}
	}
	// All fit at 160 columns: nothing to count.
	h.send(tea.WindowSizeMsg{Width: 160, Height: 48})
	if shown, counted := seen(helpAndNotices(h)[:1]); shown != len(notices) || counted != 0 {
		t.Errorf("at 160 columns %d shown, %d counted:\n%s", shown, counted, strings.Join(helpAndNotices(h), "\n"))
	}
	// A wrapped notice, newest, with the two others hidden behind it, in a
	// form: the count says where they are without naming a key that types.
	h.send(tea.WindowSizeMsg{Width: 60, Height: 18})
	openOperation(h, "create invitations")
	h.send(ui.ToastMsg{Text: strings.Repeat("a notice too long for one line ", 4), Bad: true})
	_, _, bodyH := h.root.layout()
	frame := strings.Split(h.frame(), "\n")
	under := strings.Join(frame[1+bodyH:len(frame)-1], "\n")
	if !strings.Contains(under, "+2 more in the messages view") {
		t.Errorf("the hidden notices are not counted under a wrapped one:\n%s", under)
	}
	for _, l := range frame {
		if ansi.StringWidth(l) > 60 {
			t.Errorf("a line is wider than the window: %q", l)
		}
	}
}

// The tab bar fits every width the console draws (60 to 200 columns) on one
// line, with every tab's number and the active title whole, and shortens
// the other titles only as far as it must: a title is never cut while the
// bar leaves room for more of it.
func TestTabBarShortensTitlesOnlyAsFarAsItMust(t *testing.T) {
	h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 0)
	for width := minWidth; width <= 200; width++ {
		h.send(tea.WindowSizeMsg{Width: width, Height: 30})
		for active := range h.root.screens {
			h.root.active = active
			bar, _ := h.root.tabBar()
			plain := ansi.Strip(bar)
			used := ansi.StringWidth(plain)
			if used > width {
				t.Fatalf("at %d columns the bar does not fit: %q", width, plain)
			}
			cut := 0
			for i, s := range h.root.screens {
				title := s.Title()
				if i == active && !strings.Contains(plain, fmt.Sprintf("%d %s", i+1, title)) {
					t.Fatalf("at %d columns the active title %q is not whole: %q", width, title, plain)
				}
				if !strings.Contains(plain, fmt.Sprintf("  %d", i+1)) {
					t.Fatalf("at %d columns tab %d has no number: %q", width, i+1, plain)
				}
				if !strings.Contains(plain, fmt.Sprintf("%d %s", i+1, title)) {
					cut++
				}
			}
			// One more rune for each cut title (a word back, or a letter
			// before its …) would not fit.
			if cut > 0 && width-used >= 3*cut {
				t.Errorf("at %d columns %d titles are cut while %d columns stay empty: %q", width, cut, width-used, plain)
			}
		}
	}
}
