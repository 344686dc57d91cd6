package ui

import (
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"
)

func bindings(pairs ...string) []key.Binding {
	var out []key.Binding
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, key.NewBinding(key.WithKeys(pairs[i]), key.WithHelp(pairs[i], pairs[i+1])))
	}
	return out
}

// Every item shows whole on some line, no line is wider than the width, and an
// item is never split across lines.
func TestWrapHelpNeverCutsAnItem(t *testing.T) {
	bs := bindings("enter", "open", "a", "approve", "x", "reject", "tab/l", "next screen",
		"shift+tab/h", "previous screen", "1-9", "go to screen", ":", "commands", "m", "messages", "q", "quit")
	for _, w := range []int{20, 33, 60, 80, 200} {
		out := ansi.Strip(WrapHelp(plainTheme, bs, w))
		lines := strings.Split(out, "\n")
		for _, l := range lines {
			if ansi.StringWidth(l) > w {
				t.Errorf("width %d: line %q is %d wide", w, l, ansi.StringWidth(l))
			}
		}
		for _, b := range bs {
			item := b.Help().Key + " " + b.Help().Desc
			if ansi.StringWidth(item) > w {
				continue // wider than the line: the one case that is cut (below)
			}
			found := false
			for _, l := range lines {
				if strings.Contains(l, item) {
					found = true
				}
			}
			if !found {
				t.Errorf("width %d: %q is not whole on any line:\n%s", w, item, out)
			}
		}
		if w == 200 && len(lines) != 1 {
			t.Errorf("width 200: %d lines, want 1", len(lines))
		}
	}
	// An item wider than the line is the only thing cut.
	out := ansi.Strip(WrapHelp(plainTheme, bindings("x", strings.Repeat("long ", 10)), 20))
	if ansi.StringWidth(out) != 20 || !strings.HasSuffix(out, "…") {
		t.Errorf("a too-wide item = %q", out)
	}
}

// Columns that do not fit beside the others go below, whole.
func TestFullHelpFlowsColumnsBelow(t *testing.T) {
	groups := [][]key.Binding{
		bindings("a", "approve something long", "x", "reject something long"),
		bindings("r", "refresh the whole list", "p", "pause auto-refresh"),
		bindings("q", "quit"),
	}
	out := ansi.Strip(FullHelp(plainTheme, groups, 40))
	lines := strings.Split(out, "\n")
	for _, want := range []string{"a approve something long", "r refresh the whole list", "p pause auto-refresh", "q quit"} {
		if !strings.Contains(out, want) {
			t.Errorf("full help at 40 lacks %q:\n%s", want, out)
		}
	}
	for _, l := range lines {
		if ansi.StringWidth(l) > 40 {
			t.Errorf("line %q wider than 40", l)
		}
	}
	if len(lines) < 4 {
		t.Errorf("at 40 columns the groups should stack:\n%s", out)
	}
	if wide := ansi.Strip(FullHelp(plainTheme, groups, 120)); len(strings.Split(wide, "\n")) != 2 {
		t.Errorf("at 120 columns the groups should sit side by side:\n%s", wide)
	}
}
