package screens

import (
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
