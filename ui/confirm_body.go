package ui

import (
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// confirmBody is what is being confirmed, wrapped to the dialog at one width.
// Wrapping is linear in the text, and a create_policy at its maximum wraps
// some 50 kB: done on every keystroke and again by each frame, it took longer
// than a frame. So a dialog keeps the body it wrapped last, and a keystroke
// only slices it.
type confirmBody struct {
	width int
	// lines and warned are the Lines and Warn it was wrapped from: a caller
	// may set them after NewConfirm (voting.go fills Warn), so each use
	// compares them, one string header a line, not one byte.
	lines  []string
	warned []bool
	rows   []string // every line wrapped, in order
	warn   []bool   // per row: drawn in the warning style
	start  []int    // per line: the row it starts on; then len(rows)
	widest int      // of the rows, in cells
	wide   []int    // per line: its widest row, in cells
}

// confirmCache holds the body a Confirm wrapped last. Copies of a Confirm
// share it; each checks it still holds its own lines before using it. from
// is a body another dialog wrapped (ReuseWrap): its lines' rows are taken
// for the same lines at the same width.
type confirmCache struct{ body, from *confirmBody }

// ReuseWrap lets c take, for each of its lines, the rows prev wrapped it
// into last, when the width is the same: a dialog opened again on the same
// activity (a vote dialog restates an intent that may be 10,000 characters
// long) wraps only what changed.
func (c *Confirm) ReuseWrap(prev Confirm) {
	if c.cache == nil || prev.cache == nil {
		return
	}
	from := prev.cache.body
	if from == nil {
		from = prev.cache.from
	}
	c.cache.from = from
}

// rowsOf are the rows b wrapped line l into (its warning aside) and the
// widest's width, if it wrapped l width wide.
func (b *confirmBody) rowsOf(l string, width int, index map[string]int) ([]string, int, bool) {
	if b == nil || b.width != width {
		return nil, 0, false
	}
	i, ok := index[l]
	if !ok {
		return nil, 0, false
	}
	return b.rows[b.start[i]:b.start[i+1]], b.wide[i], true
}

// lineIndex maps each line of b to its index.
func (b *confirmBody) lineIndex() map[string]int {
	if b == nil {
		return nil
	}
	m := make(map[string]int, len(b.lines))
	for i, l := range b.lines {
		m[l] = i
	}
	return m
}

// holds reports whether b is c's body wrapped width wide.
func (b *confirmBody) holds(c Confirm, width int) bool {
	if b == nil || b.width != width || len(b.lines) != len(c.Lines) {
		return false
	}
	for i, l := range c.Lines {
		// Equal strings sharing their bytes compare without reading them.
		if b.lines[i] != l || b.warned[i] != c.Warn[i] {
			return false
		}
	}
	return true
}

// wrapped is c's body drawn width wide, wrapped again only when the width,
// a line or a warning changed since it was last.
func (c Confirm) wrapped(width int) *confirmBody {
	if c.cache != nil && c.cache.body.holds(c, width) {
		return c.cache.body
	}
	inner := confirmInner(width)
	b := &confirmBody{width: width, lines: slices.Clone(c.Lines), warned: make([]bool, len(c.Lines)),
		start: make([]int, 0, len(c.Lines)+1)}
	// Lines already wrapped (by another dialog, or by this one before its
	// lines were restated) are not wrapped again.
	var from *confirmBody
	var index map[string]int
	if c.cache != nil {
		for _, f := range []*confirmBody{c.cache.from, c.cache.body} {
			if f != nil && f.width == width {
				from, index = f, f.lineIndex()
				break
			}
		}
	}
	for i, l := range c.Lines {
		b.warned[i] = c.Warn[i]
		b.start = append(b.start, len(b.rows))
		wrapped, wide, ok := from.rowsOf(l, width, index)
		if !ok {
			wrapped = strings.Split(wrapField(Clean(l), inner), "\n")
			for _, r := range wrapped {
				wide = max(wide, ansi.StringWidth(r))
			}
		}
		b.rows = append(b.rows, wrapped...)
		for range wrapped {
			b.warn = append(b.warn, b.warned[i])
		}
		b.wide = append(b.wide, wide)
		b.widest = max(b.widest, wide)
	}
	b.start = append(b.start, len(b.rows))
	if c.cache != nil {
		if from != nil && from == c.cache.from {
			c.cache.from = nil // taken: this body holds what it lent
		}
		c.cache.body = b
	}
	return b
}

// warningsIn counts the warnings (Lines marked in Warn, not their rows: a
// warning wrapped onto nine rows is one) with a row among rows; a line
// weight holds counts as that many (Confirm.WarnWeight).
func (b *confirmBody) warningsIn(rows []bool, weight map[int]int) int {
	n := 0
	for i, warned := range b.warned {
		if warned && slices.Contains(rows[b.start[i]:b.start[i+1]], true) {
			n += max(weight[i], 1)
		}
	}
	return n
}
