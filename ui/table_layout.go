package ui

import (
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// The table's layout: sorting by a column and the columns' widths.

// SortBy sorts the rows by column col (-1: the order given to SetRows), descending
// when desc; the header marks the column with ▲ or ▼. The selection stays on its row.
func (t *Table) SortBy(col int, desc bool) {
	if col < -1 || col >= len(t.cols) {
		col = -1
	}
	selected := t.SelectedID()
	t.sortCol, t.sortDesc = col, desc
	t.applyFilter(t.pattern, false)
	t.selectID(selected)
}

// SortColumn is the column the rows are sorted by (-1 = none) and its direction.
func (t Table) SortColumn() (col int, desc bool) { return t.sortCol, t.sortDesc }

// CycleSort sorts by the next column, ascending; after the last column it
// returns to the order given.
func (t *Table) CycleSort() {
	next := t.sortCol + 1
	if next >= len(t.cols) {
		next = -1
	}
	t.SortBy(next, false)
}

// ReverseSort flips the direction (sorting by the first column when none is set).
func (t *Table) ReverseSort() {
	if t.sortCol < 0 {
		t.SortBy(0, true)
		return
	}
	t.SortBy(t.sortCol, !t.sortDesc)
}

// sortKey is what row i sorts by in column col.
func (t Table) sortKey(i, col int) string {
	r := t.rows[i]
	if col < len(r.Sort) && r.Sort[col] != "" {
		return r.Sort[col]
	}
	if col < len(r.Cells) {
		return r.Cells[col]
	}
	return ""
}

// sortVisible orders the visible rows by the sort column, stably (equal keys keep
// the order given).
func (t *Table) sortVisible() {
	if t.sortCol < 0 {
		return
	}
	col, desc := t.sortCol, t.sortDesc
	slices.SortStableFunc(t.visible, func(a, b int) int {
		c := strings.Compare(t.sortKey(a, col), t.sortKey(b, col))
		if desc {
			return -c
		}
		return c
	})
}

func (t *Table) selectID(id string) {
	t.cursor = 0
	if id != "" {
		for i, ri := range t.visible {
			if t.rows[ri].ID == id {
				t.cursor = i
				break
			}
		}
	}
	t.clampOffset()
}

// cellWidth is the width of a cleaned cell: its length when it is ASCII (most
// cells; measuring graphemes costs about 1 µs a cell, 0.2 s at 100,000 rows).
func cellWidth(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return ansi.StringWidth(s)
		}
	}
	return len(s)
}

// widths lays the columns out in the table's width, one space between columns:
// each column gets its least width; the spare width goes to the columns whose
// cells (or title and sort mark) need more, the Grow column first, each up to its
// Max; what is left goes to the Grow column.
func (t Table) widths() []int {
	w := make([]int, len(t.cols))
	used, grow := len(t.cols)-1, -1
	for i, c := range t.cols {
		w[i] = c.Width
		used += c.Width
		if c.Grow && grow < 0 {
			grow = i
		}
	}
	spare := t.width - used
	order := make([]int, 0, len(t.cols))
	if grow >= 0 {
		order = append(order, grow)
	}
	for i := range t.cols {
		if i != grow {
			order = append(order, i)
		}
	}
	for _, i := range order {
		if spare <= 0 {
			break
		}
		need := ansi.StringWidth(t.title(i))
		if i < len(t.need) {
			need = max(need, t.need[i])
		}
		if m := t.cols[i].Max; m > 0 {
			need = min(need, m)
		}
		if add := min(need-w[i], spare); add > 0 {
			w[i] += add
			spare -= add
		}
	}
	if grow >= 0 && spare > 0 {
		w[grow] += spare
	}
	if grow >= 0 {
		w[grow] = max(w[grow], 1)
	}
	return w
}

// title is column i's header, with the sort mark when the rows are sorted by it.
func (t Table) title(i int) string {
	if i != t.sortCol {
		return t.cols[i].Title
	}
	if t.sortDesc {
		return t.cols[i].Title + " ▼"
	}
	return t.cols[i].Title + " ▲"
}
