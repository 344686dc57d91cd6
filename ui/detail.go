package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vigil-console/vigil/ui/theme"
)

// Detail is a scrollable pane of sections of labelled fields and blocks (pretty
// JSON, lists). The screen gives it content; the pane cleans it again and wraps it.
type Detail struct {
	vp    viewport.Model
	theme *theme.Theme
	width int
	raw   string // content before wrapping, kept to re-wrap on resize
	// starts[i] is the wrapped line where raw line i begins (len = raw lines + 1).
	starts []int
}

// NewDetail returns an empty pane.
func NewDetail(th *theme.Theme) Detail {
	vp := viewport.New(viewport.WithWidth(80), viewport.WithHeight(10))
	vp.KeyMap.Left.SetEnabled(false)
	vp.KeyMap.Right.SetEnabled(false)
	return Detail{vp: vp, theme: th, width: 80}
}

// SetTheme changes the styles.
func (d *Detail) SetTheme(th *theme.Theme) { d.theme = th }

// SetSize sets the pane's size in cells.
func (d *Detail) SetSize(width, height int) {
	width = max(width, 10)
	d.vp.SetWidth(width)
	d.vp.SetHeight(max(height, 1))
	if width != d.width {
		d.width = width
		d.SetContent(d.raw)
	}
}

// SetContent replaces the content, keeping the scroll position when possible.
// Each line is wrapped to the pane's width at word boundaries (wrapLine: only
// a word longer than the width, like a hex key, is broken).
func (d *Detail) SetContent(s string) {
	d.raw = s
	y := d.vp.YOffset()
	// A reader scrolled to the end stays there when the content grows or
	// shrinks above it (a record refreshed after a vote): the end is what
	// they were reading.
	atEnd := y > 0 && d.vp.AtBottom()
	var out []string
	d.starts = d.starts[:0]
	for _, l := range strings.Split(s, "\n") {
		d.starts = append(d.starts, len(out))
		out = append(out, strings.Split(wrapLine(l, d.width), "\n")...)
	}
	d.starts = append(d.starts, len(out))
	d.vp.SetContentLines(out)
	d.vp.SetYOffset(y)
	if atEnd {
		d.vp.GotoBottom()
	}
}

// escapeLen is the length of the sanitizer escape s starts with, 0 if none.
func escapeLen(s string) int {
	if len(s) < 2 || s[0] != '\\' {
		return 0
	}
	var digits int // a switch, not a map literal: this runs once a backslash
	switch s[1] {
	case 'u':
		digits = 4
	case 'U':
		digits = 8
	case 'x':
		digits = 2
	}
	if digits == 0 || len(s) < 2+digits {
		return 0
	}
	for _, c := range []byte(s[2 : 2+digits]) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return 0
		}
	}
	return 2 + digits
}

// ShowLine scrolls as little as needed for raw line i of the content (before
// wrapping) to be fully visible, for screens that move a cursor over lines.
func (d *Detail) ShowLine(i int) {
	if i < 0 || i+1 >= len(d.starts) {
		return
	}
	first, last := d.starts[i], d.starts[i+1]-1
	y, h := d.vp.YOffset(), d.vp.Height()
	switch {
	case first < y:
		d.vp.SetYOffset(first)
	case last >= y+h:
		d.vp.SetYOffset(min(first, last-h+1))
	}
}

// GotoTop scrolls back to the start (a new record was opened).
func (d *Detail) GotoTop() { d.vp.GotoTop() }

// KeyBindings are the scroll keys, for help.
func (d Detail) KeyBindings() []key.Binding {
	return []key.Binding{d.vp.KeyMap.Up, d.vp.KeyMap.Down, d.vp.KeyMap.PageUp, d.vp.KeyMap.PageDown}
}

// Update scrolls.
func (d Detail) Update(msg tea.Msg) (Detail, tea.Cmd) {
	var cmd tea.Cmd
	d.vp, cmd = d.vp.Update(msg)
	return d, cmd
}

// Position says where the view is: "top", "end", "42%", or "" when all fits.
func (d Detail) Position() string {
	switch {
	case d.vp.TotalLineCount() <= d.vp.Height():
		return ""
	case d.vp.AtTop():
		return "top"
	case d.vp.AtBottom():
		return "end"
	}
	return fmt.Sprintf("%d%%", int(d.vp.ScrollPercent()*100))
}

// View renders the visible part.
func (d Detail) View() string { return d.vp.View() }

// DetailBuilder assembles the text of a Detail pane. Everything added is untrusted
// by default and cleaned.
type DetailBuilder struct {
	th *theme.Theme
	b  strings.Builder
	// LabelWidth is the width of Field's label column, colon and space included
	// (0 = 16).
	// A screen whose labels are longer sets it from LabelWidth(labels...), so
	// the values line up.
	LabelWidth int
}

// LabelWidth is the label column that fits every label, its colon and a space.
func LabelWidth(labels ...string) int {
	w := 0
	for _, l := range labels {
		w = max(w, ansi.StringWidth(Clean(l))+2)
	}
	return w
}

// NewDetailBuilder starts an empty document.
func NewDetailBuilder(th *theme.Theme) *DetailBuilder { return &DetailBuilder{th: th} }

// Section starts a titled section.
func (db *DetailBuilder) Section(title string) {
	if db.b.Len() > 0 {
		db.b.WriteByte('\n')
	}
	db.b.WriteString(db.th.Section.Render(Clean(title)))
	db.b.WriteByte('\n')
}

// Field adds "label: value". Both are cleaned: a label can come from the
// server too (a feature's name).
func (db *DetailBuilder) Field(label, value string) {
	w := db.LabelWidth
	if w <= 0 {
		w = 16
	}
	db.b.WriteString(db.th.Label.Render(padRight(Clean(label)+":", w)))
	db.b.WriteString(Clean(value))
	db.b.WriteByte('\n')
}

// Line adds a line of text.
func (db *DetailBuilder) Line(s string) {
	db.b.WriteString(Clean(s))
	db.b.WriteByte('\n')
}

// Styled adds a line already styled by the caller from cleaned parts.
func (db *DetailBuilder) Styled(s string) {
	db.b.WriteString(s)
	db.b.WriteByte('\n')
}

// JSON adds v as indented JSON, or the error if it cannot be encoded. The
// JSON is shown as it is (it may be what was signed), so a name in it with
// look-alike letters reads like the name it imitates: after it, a warning
// line names each such string and shows it as api.Quote does.
func (db *DetailBuilder) JSON(v any) {
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false) // show a >= 2, not a \u003e= 2
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		db.Line("(cannot show: " + err.Error() + ")")
		return
	}
	db.b.WriteString(CleanBlock(out.String()))
	for _, l := range lookalikeStrings(out.Bytes()) {
		db.Styled(db.th.Warn.Render("⚠ look-alike characters in " + Clean(l.path) + ": " + l.quoted))
	}
}

// NextLine is the index of the line the next addition starts on, so a screen
// can remember where a line it adds will be (see Detail.ShowLine).
func (db *DetailBuilder) NextLine() int { return strings.Count(db.b.String(), "\n") }

// String returns the document.
func (db *DetailBuilder) String() string { return strings.TrimRight(db.b.String(), "\n") }

func padRight(s string, w int) string {
	if n := ansi.StringWidth(s); n < w {
		return s + strings.Repeat(" ", w-n)
	}
	return s + " "
}
