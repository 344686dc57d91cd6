package screens

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vigil-console/vigil/ui"
	"github.com/vigil-console/vigil/ui/theme"
)

// formBox draws a form in a dialog box, with the last error and a hint under
// the fields, wrapped (the end of an error often says what to do), and the
// keys line last. A form taller than the window scrolls only its fields,
// keeping the focused one in sight, with a line saying how many are hidden
// above and below: the title, the error that says why a submit was refused
// and the keys stay on screen.
func formBox(th *theme.Theme, f ui.Form, errText, hint, help string, width, height int) string {
	w := min(max(width-8, 20), 86)
	lines, first, last := f.Lines(th, w)
	// Lines starts with the title and a blank line.
	head, fields := lines[:min(2, len(lines))], lines[min(2, len(lines)):]
	first, last = max(first-len(head), 0), max(last-len(head), 0)
	wrapped := func(text string, style lipgloss.Style) []string {
		if text == "" {
			return nil
		}
		var out []string
		for _, l := range ui.WrapLines(ui.Clean(text), w) {
			out = append(out, style.Render(l))
		}
		return out
	}
	errLines, hintLines := wrapped(errText, th.Bad), wrapped(hint, th.Warn)
	keys := th.Muted.Render(ansi.Truncate(help, w, "…"))

	// foot joins the messages and the keys line, blank lines between them
	// unless tight.
	foot := func(tight bool, msgs ...[]string) []string {
		var out []string
		for _, m := range append(msgs, []string{keys}) {
			if len(m) > 0 && !tight {
				out = append(out, "")
			}
			out = append(out, m...)
		}
		return out
	}
	all := append(append(append([]string{}, head...), fields...), foot(false, errLines, hintLines)...)
	if height <= 0 || len(all) <= height-4 {
		return th.Dialog.Render(strings.Join(all, "\n"))
	}

	// Too tall: the box loses its blank padding, then the hint, then the
	// blank lines, until the fields have room for a mark above and below
	// the focused field's label and value.
	room := height - 2
	title := head[:min(1, len(head))]
	layouts := [][2][]string{
		{head, foot(false, errLines, hintLines)},
		{head, foot(false, errLines)},
		{title, foot(true, errLines)},
	}
	var top, bottom []string
	for _, l := range layouts {
		top, bottom = l[0], l[1]
		if room-len(top)-len(bottom) >= 4 {
			break
		}
	}
	return th.DialogTight.Render(strings.Join(pinnedLines(th, top, fields, first, last, bottom, w, room), "\n"))
}

// pinnedLines fits head, body and foot into height lines (all of them when
// they fit): the head and the foot stay in sight, and the body scrolls
// (scrollFields), keeping its lines first to last in sight. A window too
// short for the body to show a line between its marks loses the foot's blank
// lines, then the head, then the start of the foot: its end says what to do,
// and a form's keys line is last.
func pinnedLines(th *theme.Theme, head, body []string, first, last int, foot []string, width, height int) []string {
	if height <= 0 || len(head)+len(body)+len(foot) <= height {
		return append(append(append([]string{}, head...), body...), foot...)
	}
	const minBody = 3 // a mark, a line, a mark
	if height-len(head)-len(foot) < minBody {
		foot = slices.DeleteFunc(slices.Clone(foot), func(l string) bool { return strings.TrimSpace(ansi.Strip(l)) == "" })
	}
	if height-len(head)-len(foot) < minBody {
		head = nil
	}
	if over := len(foot) - max(height-minBody, 0); over > 0 {
		foot = foot[min(over, len(foot)):]
	}
	window := scrollFields(th, body, first, last, max(height-len(head)-len(foot), 1), width)
	out := append(append(append([]string{}, head...), window...), foot...)
	return out[:min(len(out), height)]
}

// scrollFields is at most room lines: a window on fields that keeps lines
// first to last in sight, with a "↑ N above" line over it and a "↓ N below"
// line under it when lines are hidden there.
func scrollFields(th *theme.Theme, fields []string, first, last, room, width int) []string {
	n := len(fields)
	if n <= room {
		return fields
	}
	mark := func(s string) string { return th.Warn.Render(ansi.Truncate(s, width, "…")) }
	// One mark when the window touches an end, both otherwise.
	win := max(room-1, 1)
	start := ui.ScrollStart(n, win, first, last)
	if start > 0 && start+win < n {
		win = max(room-2, 1)
		start = ui.ScrollStart(n, win, first, last)
	}
	var out []string
	if start > 0 {
		out = append(out, mark(fmt.Sprintf("↑ %d above", start)))
	}
	out = append(out, fields[start:start+win]...)
	if below := n - start - win; below > 0 {
		out = append(out, mark(fmt.Sprintf("↓ %d below", below)))
	}
	return out
}
