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

// WrapHelp renders bindings like ShortHelp, wrapping between items onto as many
// lines as width needs, so no key is cut off; only an item wider than the whole
// line is truncated.
func WrapHelp(th *theme.Theme, bindings []key.Binding, width int) string {
	sep := th.HelpSep.Render(" • ")
	sepW := ansi.StringWidth(sep)
	var lines []string
	var cur string
	curW := 0
	for _, b := range bindings {
		s := helpItem(th, b)
		if s == "" {
			continue
		}
		w := ansi.StringWidth(s)
		switch {
		case curW == 0:
		case curW+sepW+w <= width:
			cur += sep
			curW += sepW
		default:
			lines = append(lines, cur)
			cur, curW = "", 0
		}
		if w > width {
			s, w = ansi.Truncate(s, width, "…"), width
		}
		cur += s
		curW += w
	}
	if curW > 0 {
		lines = append(lines, cur)
	}
	return strings.Join(lines, "\n")
}

// FullHelp renders groups of bindings as columns. Columns that do not fit beside
// the previous ones start a new row of columns below, so nothing is cut off at
// narrow widths (a single column wider than width is truncated).
func FullHelp(th *theme.Theme, groups [][]key.Binding, width int) string {
	const gap = "    "
	var blocks, row []string
	rowW := 0
	flush := func() {
		if len(row) > 0 {
			blocks = append(blocks, lipgloss.JoinHorizontal(lipgloss.Top, row...))
		}
		row, rowW = nil, 0
	}
	for _, g := range groups {
		var lines []string
		for _, b := range g {
			if s := helpItem(th, b); s != "" {
				lines = append(lines, s)
			}
		}
		if len(lines) == 0 {
			continue
		}
		col := strings.Join(lines, "\n")
		w := lipgloss.Width(col)
		if rowW > 0 && rowW+len(gap)+w > width {
			flush()
		}
		if rowW > 0 {
			row = append(row, gap)
			rowW += len(gap)
		}
		row = append(row, col)
		rowW += w
	}
	flush()
	lines := strings.Split(strings.Join(blocks, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(ansi.Truncate(l, width, "…"), " ")
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
