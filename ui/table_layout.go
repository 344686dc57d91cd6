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

// growFloor is how narrow the Grow column may become (or its Width, when less)
// so that the other columns show their content.
const growFloor = 10

// widths lays the columns out in the table's width, one space between columns.
// Every column starts at its least width, but the Grow column lends what it has
// above growFloor. The spare width then goes:
//
//  1. to the other columns, up to their content (title and sort mark included)
//     capped at their Max, the smallest need first, so that small columns (an
//     age, a status, votes) show in full even when the Grow column's cells are
//     very long; only a column whose need is at most two fifths of the table's
//     width takes width here, and only all it needs (the Grow column gives way
//     so that a small column shows in full, never to one long column);
//  2. to the Grow column, back to its least width and up to its content capped at
//     its Max: at a narrow width it is the one that is cut;
//  3. to the columns still cut, now past their Max: the smallest need first, in
//     full while it fits; what is left is shared evenly among the rest, so that
//     one very wide column does not take it all;
//  4. what is left, to the Grow column.
//
// Without a Grow column, the spare width after step 3 stays blank.
func (t Table) widths() []int {
	n := len(t.cols)
	w := make([]int, n)
	need := make([]int, n)   // the widest cell or title
	capped := make([]int, n) // need capped at Max
	grow := -1
	used := n - 1
	for i, c := range t.cols {
		w[i] = c.Width
		need[i] = ansi.StringWidth(t.title(i))
		if i < len(t.need) {
			need[i] = max(need[i], t.need[i])
		}
		capped[i] = need[i]
		if c.Max > 0 {
			capped[i] = min(capped[i], c.Max)
		}
		if c.Grow && grow < 0 {
			grow = i
			w[i] = min(c.Width, growFloor)
		}
		used += w[i]
	}
	spare := t.width - used
	if spare < 0 {
		shrink(w, grow, -spare)
		spare = 0
	}
	give := func(i, upto int) {
		if add := min(upto-w[i], spare); add > 0 {
			w[i] += add
			spare -= add
		}
	}
	others := make([]int, 0, n)
	for i := range t.cols {
		if i != grow {
			others = append(others, i)
		}
	}
	slices.SortStableFunc(others, func(a, b int) int { return (capped[a] - w[a]) - (capped[b] - w[b]) })
	// Only a small column (an age, a status: at most two fifths of the table)
	// takes its content's width here, and only whole; a wide one (a long
	// expression) waits for step 3 rather than take everything.
	for _, i := range others {
		if capped[i]-w[i] <= spare && capped[i] <= t.width*2/5 {
			give(i, capped[i])
		}
	}
	if grow >= 0 {
		give(grow, max(t.cols[grow].Width, capped[grow]))
	}
	var cut []int
	for i := range t.cols {
		if w[i] < need[i] {
			cut = append(cut, i)
		}
	}
	slices.SortStableFunc(cut, func(a, b int) int { return (need[a] - w[a]) - (need[b] - w[b]) })
	for k, i := range cut {
		if need[i]-w[i] <= spare {
			give(i, need[i]) // it fits whole
			continue
		}
		// The rest do not: they share what is left evenly.
		for m, j := range cut[k:] {
			give(j, min(need[j], w[j]+max(spare, 0)/(len(cut)-k-m)))
		}
		break
	}
	if grow >= 0 {
		w[grow] = max(w[grow]+max(spare, 0), 1)
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

// TableState is what the user set on a table: its filter, its sort and the
// selected row. A screen that shows two kinds of rows in one table keeps one
// per kind, so switching back finds the view as it was left.
type TableState struct {
	Filter     string
	SortCol    int
	SortDesc   bool
	SelectedID string
}

// State is the table's filter, sort and selection.
func (t Table) State() TableState {
	return TableState{Filter: t.pattern, SortCol: t.sortCol, SortDesc: t.sortDesc, SelectedID: t.SelectedID()}
}

// Restore applies s to the rows set (after SetColumns and SetRows): the
// filter, the sort, and the selection when that row is still there. The
// zero TableState is no sort, as SetColumns leaves it.
func (t *Table) Restore(s TableState) {
	t.input.SetValue(s.Filter)
	col := s.SortCol
	if s == (TableState{}) {
		col = -1
	}
	if col < -1 || col >= len(t.cols) {
		col = -1
	}
	t.sortCol, t.sortDesc = col, s.SortDesc
	t.applyFilter(s.Filter, false)
	t.selectID(s.SelectedID)
}

// shrinkFloor is how narrow shrink makes a column: a letter or two and the …
// that says the cell is cut.
const shrinkFloor = 3

// shrink takes over cells from the columns when their least widths do not fit
// the table (a narrow window): the widest column other than the Grow one
// first, one cell at a time, then the Grow column, none below shrinkFloor.
// Their cells end in …, rather than the table's lines going past the edge of
// the screen, where they would be cut without a mark.
func shrink(w []int, grow, over int) {
	for over > 0 {
		widest := -1
		for i := range w {
			if i != grow && w[i] > shrinkFloor && (widest < 0 || w[i] > w[widest]) {
				widest = i
			}
		}
		if widest < 0 {
			if grow < 0 || w[grow] <= shrinkFloor {
				return // nothing left to take: the row is cut at the edge
			}
			widest = grow
		}
		w[widest]--
		over--
	}
}
