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
}

// confirmCache holds the body a Confirm wrapped last. Copies of a Confirm
// share it; each checks it still holds its own lines before using it.
type confirmCache struct{ body *confirmBody }

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
	for i, l := range c.Lines {
		b.warned[i] = c.Warn[i]
		b.start = append(b.start, len(b.rows))
		wrapped := strings.Split(wrapField(Clean(l), inner), "\n")
		b.rows = append(b.rows, wrapped...)
		for _, r := range wrapped {
			b.warn = append(b.warn, b.warned[i])
			b.widest = max(b.widest, ansi.StringWidth(r))
		}
	}
	b.start = append(b.start, len(b.rows))
	if c.cache != nil {
		c.cache.body = b
	}
	return b
}
