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
//
// The pane keeps the scroll offset itself and hands the viewport only the
// lines in view: the viewport measures the width of every line it is given,
// which for a record of thousands of lines would cost each keystroke a
// measure of all of them.
type Detail struct {
	vp     viewport.Model
	theme  *theme.Theme
	width  int
	height int
	y      int      // the first wrapped line in view
	blocks []string // content before wrapping, kept to re-wrap on resize
	lines  []string // the content wrapped
	// starts[i] is the wrapped line where raw line i begins (len = raw lines + 1).
	starts []int
	// wrapped memoises each block's wrapping at this width, by its text: a
	// screen that moves a cursor over a long record changes a few blocks a
	// keystroke and the others are not wrapped again.
	wrapped map[string]wrappedBlock
}

// wrappedBlock is a block of content wrapped: its lines, and where each of
// its raw lines begins among them.
type wrappedBlock struct {
	lines  []string
	starts []int
}

// NewDetail returns an empty pane.
func NewDetail(th *theme.Theme) Detail {
	vp := viewport.New(viewport.WithWidth(80), viewport.WithHeight(10))
	vp.KeyMap.Left.SetEnabled(false)
	vp.KeyMap.Right.SetEnabled(false)
	// Half pages on ctrl+u/ctrl+d only: u and d are screens' letters (pick
	// user, delete keys). Help names every key the pane answers.
	vp.KeyMap.HalfPageUp = key.NewBinding(key.WithKeys("ctrl+u"), key.WithHelp("ctrl+u", "½ page up"))
	vp.KeyMap.HalfPageDown = key.NewBinding(key.WithKeys("ctrl+d"), key.WithHelp("ctrl+d", "½ page down"))
	vp.KeyMap.PageDown.SetHelp("f/space/pgdn", "page down")
	return Detail{vp: vp, theme: th, width: 80, height: 10}
}

// SetTheme changes the styles.
func (d *Detail) SetTheme(th *theme.Theme) { d.theme = th }

// SetSize sets the pane's size in cells.
func (d *Detail) SetSize(width, height int) {
	width = max(width, 10)
	d.vp.SetWidth(width)
	d.height = max(height, 1)
	d.vp.SetHeight(d.height)
	if width != d.width {
		d.width = width
		d.wrapped = nil // wrapped at the old width
		d.SetBlocks(d.blocks)
		return
	}
	d.setY(d.y)
}

// SetContent replaces the content, keeping the scroll position when possible.
// Each line is wrapped to the pane's width at word boundaries (wrapLine: only
// a word longer than the width, like a hex key, is broken).
func (d *Detail) SetContent(s string) { d.SetBlocks([]string{s}) }

// SetBlocks is SetContent(strings.Join(blocks, "\n")) for content made of
// parts that mostly stay the same from one call to the next (a long list with
// a cursor): a block identical to one of the previous call's is not wrapped
// again.
func (d *Detail) SetBlocks(blocks []string) {
	d.blocks = blocks
	// A reader scrolled to the end stays there when the content grows or
	// shrinks above it (a record refreshed after a vote): the end is what
	// they were reading.
	atEnd := d.y > 0 && d.y >= d.maxY()
	memo := make(map[string]wrappedBlock, len(blocks))
	// New slices: a copy of the pane (a taller one, to read it all) shares
	// the old ones.
	d.lines, d.starts = make([]string, 0, len(d.lines)), make([]int, 0, len(d.starts))
	for _, b := range blocks {
		w, ok := memo[b]
		if !ok {
			if w, ok = d.wrapped[b]; !ok {
				w = wrapBlock(b, d.width)
			}
			memo[b] = w
		}
		for _, s := range w.starts {
			d.starts = append(d.starts, len(d.lines)+s)
		}
		d.lines = append(d.lines, w.lines...)
	}
	d.starts = append(d.starts, len(d.lines))
	d.wrapped = memo // only the blocks shown: the memo does not grow
	if atEnd {
		d.setY(d.maxY())
	} else {
		d.setY(d.y)
	}
}

// wrapBlock wraps each line of a block to width.
func wrapBlock(b string, width int) wrappedBlock {
	var w wrappedBlock
	for _, l := range strings.Split(b, "\n") {
		w.starts = append(w.starts, len(w.lines))
		w.lines = append(w.lines, strings.Split(wrapLine(l, width), "\n")...)
	}
	return w
}

// maxY is the offset that shows the last line at the bottom.
func (d *Detail) maxY() int { return max(len(d.lines)-d.height, 0) }

// setY scrolls to wrapped line y (as far as there is content) and gives the
// viewport the lines in view, a copy: it may rewrite the slice it is given.
func (d *Detail) setY(y int) {
	d.y = min(max(y, 0), d.maxY())
	end := min(d.y+d.height, len(d.lines))
	d.vp.SetContentLines(append([]string(nil), d.lines[d.y:end]...))
	d.vp.SetYOffset(0)
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
	switch {
	case first < d.y:
		d.setY(first)
	case last >= d.y+d.height:
		d.setY(min(first, last-d.height+1))
	}
}

// GotoTop scrolls back to the start (a new record was opened).
func (d *Detail) GotoTop() { d.setY(0) }

// GotoBottom scrolls to the end.
func (d *Detail) GotoBottom() { d.setY(d.maxY()) }

// KeyBindings are the scroll keys, for help: up, down, page up, page down,
// half a page up, half a page down.
func (d Detail) KeyBindings() []key.Binding {
	km := d.vp.KeyMap
	return []key.Binding{km.Up, km.Down, km.PageUp, km.PageDown, km.HalfPageUp, km.HalfPageDown}
}

// PageDownWithoutSpace leaves space to the screen (Users marks keys with it):
// f and pgdn page down.
func (d *Detail) PageDownWithoutSpace() {
	d.vp.KeyMap.PageDown.SetKeys("f", "pgdown")
	d.vp.KeyMap.PageDown.SetHelp("f/pgdn", "page down")
}

// Update scrolls, with the viewport's keys and mouse wheel.
func (d Detail) Update(msg tea.Msg) (Detail, tea.Cmd) {
	km := d.vp.KeyMap
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, km.PageDown):
			d.setY(d.y + d.height)
		case key.Matches(msg, km.PageUp):
			d.setY(d.y - d.height)
		case key.Matches(msg, km.HalfPageDown):
			d.setY(d.y + d.height/2)
		case key.Matches(msg, km.HalfPageUp):
			d.setY(d.y - d.height/2)
		case key.Matches(msg, km.Down):
			d.setY(d.y + 1)
		case key.Matches(msg, km.Up):
			d.setY(d.y - 1)
		}
	case tea.MouseWheelMsg:
		if !d.vp.MouseWheelEnabled || msg.Mod.Contains(tea.ModShift) {
			break // shift+wheel scrolls sideways, which the pane does not
		}
		switch msg.Button {
		case tea.MouseWheelDown:
			d.setY(d.y + d.vp.MouseWheelDelta)
		case tea.MouseWheelUp:
			d.setY(d.y - d.vp.MouseWheelDelta)
		}
	}
	return d, nil
}

// Position says where the view is: "top", "end", "42%", or "" when all fits.
func (d Detail) Position() string {
	switch {
	case len(d.lines) <= d.height:
		return ""
	case d.y <= 0:
		return "top"
	case d.y >= d.maxY():
		return "end"
	}
	return fmt.Sprintf("%d%%", d.y*100/(len(d.lines)-d.height))
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
	// ends are where each addition ends in b (detail_blocks.go).
	ends []int
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
	db.end()
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
	db.end()
}

// Line adds a line of text.
func (db *DetailBuilder) Line(s string) {
	db.b.WriteString(Clean(s))
	db.b.WriteByte('\n')
	db.end()
}

// Styled adds a line already styled by the caller from cleaned parts.
func (db *DetailBuilder) Styled(s string) {
	db.b.WriteString(s)
	db.b.WriteByte('\n')
	db.end()
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
	db.end()
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
