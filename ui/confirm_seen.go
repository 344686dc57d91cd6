package ui

import "sort"

// A confirm dialog's scroll position and what it has shown are kept in
// lines, not rows: how many rows a line takes depends on the width, and a
// resize must neither move the window past text never shown nor count text
// as shown that was not.

// lineSeen is how much of one line has been on screen: all of it, or its
// first rows rows as wrapped width wide (a line taller than the window,
// read a window at a time). Rows seen at another width count for nothing,
// since they do not say which of the line's text was shown.
type lineSeen struct {
	all   bool
	width int
	rows  int
}

// setTop makes row (of the body drawn width wide) the first one shown.
func (c *Confirm) setTop(row, width int) {
	b := c.wrapped(width)
	if len(c.Lines) == 0 {
		c.top, c.topRow, c.topRows = 0, 0, 0
		return
	}
	// The last line starting at or above row.
	line := sort.Search(len(c.Lines), func(i int) bool { return b.start[i+1] > row })
	line = min(line, len(c.Lines)-1)
	c.top, c.topRow, c.topRows = line, max(row-b.start[line], 0), b.start[line+1]-b.start[line]
}

// topOffset is the first row shown, drawn width wide: the top line's row
// that holds the same part of it as when it was scrolled to, at whatever
// width that was (rows in proportion, rounded up the line).
func (c Confirm) topOffset(width int) int {
	b := c.wrapped(width)
	if c.top >= len(c.Lines) {
		return len(b.rows)
	}
	n := b.start[c.top+1] - b.start[c.top]
	r := c.topRow
	if c.topRows > 0 && c.topRows != n {
		r = r * n / c.topRows
	}
	return b.start[c.top] + min(r, n-1)
}

// Shown records the window drawn in width×height as having been on screen.
// A dialog calls it before its size changes, and Scroll before it moves.
func (c *Confirm) Shown(width, height int) {
	c.seen = c.seenWith(width, height)
}

// seenWith is what has been on screen once the window drawn in width×height
// has: a copy, so that a Confirm passed by value does not change its
// caller's.
func (c Confirm) seenWith(width, height int) []lineSeen {
	seen := make([]lineSeen, len(c.Lines))
	copy(seen, c.seen)
	b := c.wrapped(width)
	_, win := c.layout(width, height)
	off := c.window(width, len(b.rows), win)
	end := min(off+win, len(b.rows))
	for i := range c.Lines {
		first, last := b.start[i], b.start[i+1]
		if last <= off || first >= end || seen[i].all {
			continue
		}
		from, to := max(off, first)-first, min(end, last)-first
		s := &seen[i]
		switch {
		case from == 0 && (s.width != width || to > s.rows):
			s.width, s.rows = width, to
		case s.width == width && from <= s.rows:
			s.rows = max(s.rows, to)
		}
		s.all = s.width == width && s.rows >= last-first
	}
	return seen
}

// unreadRows is, per row of the body drawn width wide, whether it holds
// text never on screen, given seen.
func (c Confirm) unreadRows(width int, seen []lineSeen) []bool {
	b := c.wrapped(width)
	out := make([]bool, len(b.rows))
	for i := range c.Lines {
		s := seen[i]
		if s.all {
			continue
		}
		from := b.start[i]
		if s.width == width {
			from += s.rows
		}
		for r := from; r < b.start[i+1]; r++ {
			out[r] = true
		}
	}
	return out
}

// keepSeen keeps what was seen of the lines above line (unchanged by a
// restatement); the lines from it on count as never shown.
func keepSeen(seen []lineSeen, line int) []lineSeen {
	return append([]lineSeen(nil), seen[:min(line, len(seen))]...)
}
