package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vigil-console/vigil/ui/theme"
)

// KeyMap is what a screen or component offers for help: the same shape as
// bubbles/help.KeyMap.
type KeyMap interface {
	ShortHelp() []key.Binding
	FullHelp() [][]key.Binding
}

// ShortHelp renders bindings on one line of at most width cells. Unlike bubbles/help,
// a disabled binding is still shown, struck through, so users see that a key exists
// but does nothing now (e.g. approve in read-only mode).
func ShortHelp(th *theme.Theme, bindings []key.Binding, width int) string {
	var parts []string
	for _, b := range bindings {
		if s := helpItem(th, b); s != "" {
			parts = append(parts, s)
		}
	}
	return ansi.Truncate(strings.Join(parts, th.HelpSep.Render(" • ")), width, "…")
}

// FullHelp renders groups of bindings as columns.
func FullHelp(th *theme.Theme, groups [][]key.Binding, width int) string {
	var cols []string
	for _, g := range groups {
		var lines []string
		for _, b := range g {
			if s := helpItem(th, b); s != "" {
				lines = append(lines, s)
			}
		}
		if len(lines) > 0 {
			cols = append(cols, strings.Join(lines, "\n"), "    ")
		}
	}
	out := lipgloss.JoinHorizontal(lipgloss.Top, cols...)
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, width, "…")
	}
	return strings.Join(lines, "\n")
}

func helpItem(th *theme.Theme, b key.Binding) string {
	h := b.Help()
	if h.Key == "" || len(b.Keys()) == 0 {
		return ""
	}
	if !b.Enabled() {
		return th.Disabled.Render(h.Key + " " + h.Desc)
	}
	return th.HelpKey.Render(h.Key) + " " + th.HelpDesc.Render(h.Desc)
}
