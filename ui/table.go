package ui

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/sahilm/fuzzy"

	"github.com/vigil-console/vigil/ui/theme"
)

// Column describes one table column. Width is the column's least width in cells
// (the Grow column's may give way down to 10 cells). Spare width goes first to
// the other columns whose cells (or title and sort mark) are wider than that, up
// to Max (0 = no limit), so small columns show in full; then to the Grow column,
// which is the one cut when the width falls short; then past Max to the columns
// still cut; and what is still left to the Grow column. See Table.widths.
type Column struct {
	Title string
	Width int
	Max   int
	Grow  bool
	// Style, when set, styles a cell by its (cleaned) text: a verdict in its colour.
	Style func(cell string) lipgloss.Style
}

// Row is one table row: a stable ID (to keep the selection across refreshes) and
// its cells, in column order. Sort, when set, holds per column the value the
// column sorts by (a time as RFC 3339 for an AGE cell that reads "5m"); a column
// without one sorts by its cell.
type Row struct {
	ID    string
	Cells []string
	Sort  []string
	// Search is more text the filter matches but the row does not show (an
	// activity's full type, for a row that shows what it does).
	Search string
}

// TableKeyMap are the keys of a table.
type TableKeyMap struct {
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
	Filter, AcceptFilter, ClearFilter       key.Binding
	// FilterMove moves the selection while the filter takes keys (k and j
	// are text there).
	FilterMove key.Binding
}

// DefaultTableKeyMap returns the vim-and-arrows keys of a table.
func DefaultTableKeyMap() TableKeyMap {
	return TableKeyMap{
		Up:           key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:         key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		PageUp:       key.NewBinding(key.WithKeys("pgup", "ctrl+b"), key.WithHelp("pgup/ctrl+b", "page up")),
		PageDown:     key.NewBinding(key.WithKeys("pgdown", "ctrl+f"), key.WithHelp("pgdn/ctrl+f", "page down")),
		Top:          key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("g/home", "top")),
		Bottom:       key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("G/end", "bottom")),
		Filter:       key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter")),
		AcceptFilter: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "keep filter")),
		ClearFilter:  key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear filter")),
		FilterMove:   key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "move")),
	}
}

// Table is a scrollable table with a fuzzy filter. It renders only the rows in its
// window and filters over strings computed once per SetRows, so it stays fast with
// hundreds of thousands of rows. Filtering keeps the rows' own order (newest first
// for activities) rather than sorting by match score.
type Table struct {
	Keys  TableKeyMap
	Empty string // shown when there are no rows at all
	// Failed, when set, is shown instead of Empty: the rows could not be
	// loaded, and an empty table must not read as "there are none".
	Failed string
	// Loading is shown instead of Empty until the rows are first read
	// (SetRead): a list whose reply has not come must not read as "there
	// are none" either. "loading…" when unset.
	Loading string
	// Unsearched, when set, says what the rows leave out and the filter
	// therefore did not search ("older pages not searched"): a page of a
	// longer list must not read, filtered to nothing, as "there is none".
	Unsearched string

	read     bool // the rows are a reply's (SetRead); false from NewTable until then
	theme    *theme.Theme
	cols     []Column
	rows     []Row
	haystack []string // one filter string per row: its cells and ID, cleaned, joined by spaces
	lower    []string // haystack in lower case, what the filter scans
	visible  []int    // indices into rows that pass the filter
	cursor   int      // index into visible
	offset   int      // first visible row on screen
	width    int
	height   int
	input    Input
	pattern  string // filter applied to visible
	need     []int  // per column, the widest cleaned cell (for the column widths)
	sortCol  int    // column the rows are sorted by; -1 = the order given
	sortDesc bool
}

// NewTable returns an empty table with these columns.
func NewTable(th *theme.Theme, cols []Column) Table {
	in := Input{Prompt: "/", CharLimit: 128}
	return Table{Keys: DefaultTableKeyMap(), theme: th, cols: cols, input: in, width: 80, height: 10, sortCol: -1}
}

// SetColumns replaces the columns (a screen showing two kinds of rows); the
// sort returns to the order given. Call SetRows with rows of these columns next.
func (t *Table) SetColumns(cols []Column) {
	t.cols = cols
	t.sortCol, t.sortDesc = -1, false
	t.rows, t.haystack, t.lower, t.visible, t.need = nil, nil, nil, nil, nil
	t.cursor, t.offset = 0, 0
}

// SetRead says whether the rows are the service's answer (an empty table
// then means there are none, and shows Empty) or are still to be read, from
// nothing, as after another view or filter (it shows Loading).
func (t *Table) SetRead(read bool) { t.read = read }

// Read reports whether the rows have been read since the table was made or
// last set unread (SetRead).
func (t Table) Read() bool { return t.read }

// CountText is n for a screen's title once the rows are a reply's (Read),
// else "…": before the first reply, or after it failed, a count of 0 would
// say there are none where the body says what is loading or what failed.
func (t Table) CountText(n int) string {
	if !t.read {
		return "…"
	}
	return strconv.Itoa(n)
}

// SetTheme changes the styles (the terminal background may be learnt late).
func (t *Table) SetTheme(th *theme.Theme) { t.theme = th }

// SetSize sets the table's size in cells, header and filter line included.
func (t *Table) SetSize(width, height int) {
	t.width, t.height = max(width, 1), max(height, 2)
	t.clampOffset()
}

// SetRows replaces the rows, keeping the filter and, when that row is still there,
// the selection.
func (t *Table) SetRows(rows []Row) {
	selected := t.SelectedID()
	t.rows = rows
	t.haystack = make([]string, len(rows))
	t.lower = make([]string, len(rows))
	t.need = make([]int, len(t.cols))
	for i, r := range rows {
		t.haystack[i] = t.joinCells(r)
		t.lower[i] = strings.ToLower(t.haystack[i])
	}
	t.applyFilter(t.pattern, false)
	t.selectID(selected)
}

// Moved says where SetRowsKeepingPlace left the cursor.
type Moved int

const (
	Kept        Moved = iota // the selected row is still there, or none was selected
	ToFollowing              // the selected row is gone; on the first row that followed it and is still there
	ToLast                   // the selected row and every row that followed it are gone; on the last row
	ToFirst                  // no row listed before is left (another list): on the first row
	ToNone                   // the selected row is gone and no row is left
)

// SetRowsKeepingPlace is SetRows, except that when the selected row is gone
// the cursor goes to its neighbour, not to the first row: the first of the
// rows that followed it still there, else the last row. Rows added above in
// the same call (the newest first) do not shift it onto another row. When
// none of the rows listed before is left (another page), it goes to the
// first row, as SetRows does. The result says where it went, so that the
// caller can say the cursor is on another row now.
func (t *Table) SetRowsKeepingPlace(rows []Row) Moved {
	return t.SetRowsKeepingPlacePassing(rows, nil)
}

// SetRowsKeepingPlacePassing is SetRowsKeepingPlace, except that a cursor
// that must move passes over the rows passOver holds (rows about to go
// themselves): it goes to the first row that followed and is not passed over,
// else to the last row that is not (else the last row). Landing on a row
// that goes a moment later would move it, and say so, once per row.
func (t *Table) SetRowsKeepingPlacePassing(rows []Row, passOver func(id string) bool) Moved {
	if passOver == nil {
		passOver = func(string) bool { return false }
	}
	selected := t.SelectedID()
	var before, after []string // the ids of the rows around the selected one, in order
	if selected != "" {
		before = make([]string, 0, t.cursor)
		for _, ri := range t.visible[:t.cursor] {
			before = append(before, t.rows[ri].ID)
		}
		after = make([]string, 0, len(t.visible)-t.cursor-1)
		for _, ri := range t.visible[t.cursor+1:] {
			after = append(after, t.rows[ri].ID)
		}
	}
	t.SetRows(rows)
	if selected == "" || t.SelectedID() == selected {
		return Kept
	}
	if len(t.visible) == 0 {
		return ToNone
	}
	at := make(map[string]int, len(t.visible))
	for i, ri := range t.visible {
		at[t.rows[ri].ID] = i
	}
	for _, id := range after {
		if i, ok := at[id]; ok && !passOver(id) {
			t.cursor = i
			t.clampOffset()
			return ToFollowing
		}
	}
	for _, id := range append(before, after...) {
		if _, ok := at[id]; ok {
			t.cursor = len(t.visible) - 1
			for t.cursor > 0 && passOver(t.rows[t.visible[t.cursor]].ID) {
				t.cursor--
			}
			if passOver(t.rows[t.visible[t.cursor]].ID) {
				t.cursor = len(t.visible) - 1 // every row goes: the last, as before
			}
			t.clampOffset()
			return ToLast
		}
	}
	return ToFirst // SetRows put the cursor there
}

// Len is the number of rows; Visible the number that pass the filter.
func (t Table) Len() int     { return len(t.rows) }
func (t Table) Visible() int { return len(t.visible) }

// Selected returns the index into the rows given to SetRows of the selected row,
// or -1 when nothing is selected.
func (t Table) Selected() int {
	if t.cursor < 0 || t.cursor >= len(t.visible) {
		return -1
	}
	return t.visible[t.cursor]
}

// SelectedID is the ID of the selected row, "" when none.
func (t Table) SelectedID() string {
	if i := t.Selected(); i >= 0 {
		return t.rows[i].ID
	}
	return ""
}

// Filtering reports whether the filter is taking keys: a screen must then not treat
// letters as commands.
func (t Table) Filtering() bool { return t.input.Focused() }

// FilterPattern is the filter in effect.
func (t Table) FilterPattern() string { return t.pattern }

// SetFilter applies a filter as if typed.
func (t *Table) SetFilter(p string) {
	t.input.SetValue(p)
	t.applyFilter(t.input.Value(), true)
}

// applyFilter computes the visible rows for pattern: the rows whose filter string
// holds the pattern's characters in order, ignoring case — the match set of
// sahilm/fuzzy, which highlights the matches in the rows on screen. The scan itself
// is a byte loop over precomputed lower-case strings, because scoring every row with
// sahilm/fuzzy costs about 2 µs a row (180 ms a keystroke at 100,000 rows). When the
// new pattern extends the one in effect, only the rows that already matched are
// scanned: a match of the longer pattern is always a match of its prefix.
func (t *Table) applyFilter(pattern string, incremental bool) {
	old := t.pattern
	t.pattern = pattern
	defer t.sortVisible()
	if pattern == "" {
		t.visible = t.visible[:0]
		for i := range t.rows {
			t.visible = append(t.visible, i)
		}
		return
	}
	p := strings.ToLower(pattern)
	match := subsequenceBytes
	if !isPlain(p) {
		match = subsequenceRunes
	}
	var visible []int
	if incremental && old != "" && strings.HasPrefix(pattern, old) && t.sortCol < 0 {
		visible = t.visible[:0]
		for _, i := range t.visible {
			if match(p, t.lower[i]) {
				visible = append(visible, i)
			}
		}
	} else {
		visible = make([]int, 0, len(t.rows)/4)
		for i, h := range t.lower {
			if match(p, h) {
				visible = append(visible, i)
			}
		}
	}
	t.visible = visible
}

// subsequenceBytes reports whether the ASCII pattern p occurs in order in s. ASCII
// bytes never occur inside a multi-byte UTF-8 rune, so a byte scan is exact.
func subsequenceBytes(p, s string) bool {
	i := 0
	for j := 0; j < len(s) && i < len(p); j++ {
		if s[j] == p[i] {
			i++
		}
	}
	return i == len(p)
}

func subsequenceRunes(p, s string) bool {
	pr := []rune(p)
	i := 0
	for _, r := range s {
		if i < len(pr) && r == pr[i] {
			i++
		}
	}
	return i == len(pr)
}

// joinCells is a row's filter string; cell k starts after the k spaces and the
// cells before it, which highlighting relies on. It also records each column's
// widest cell.
func (t *Table) joinCells(r Row) string {
	var b strings.Builder
	for k, c := range r.Cells {
		c = Clean(c)
		if k < len(t.need) {
			t.need[k] = max(t.need[k], cellWidth(c))
		}
		b.WriteString(c)
		b.WriteByte(' ')
	}
	b.WriteString(Clean(r.ID))
	if r.Search != "" {
		b.WriteByte(' ')
		b.WriteString(Clean(r.Search))
	}
	return b.String()
}

// highlights returns, per cell, the byte offsets (within the cleaned cell) of the
// characters sahilm/fuzzy matched, for the rows on screen.
func (t Table) highlights(row int) [][]int {
	if t.pattern == "" {
		return nil
	}
	m := fuzzy.Find(t.pattern, []string{t.haystack[row]})
	if len(m) == 0 {
		return nil
	}
	cells := t.rows[row].Cells
	out := make([][]int, len(cells))
	start, k := 0, 0
	for _, off := range m[0].MatchedIndexes {
		for k < len(cells) && off >= start+len(Clean(cells[k]))+1 {
			start += len(Clean(cells[k])) + 1
			k++
		}
		if k >= len(cells) {
			break
		}
		if off-start < len(Clean(cells[k])) {
			out[k] = append(out[k], off-start)
		}
	}
	return out
}

// Update moves the selection and edits the filter.
func (t Table) Update(msg tea.Msg) (Table, tea.Cmd) {
	if t.input.Focused() {
		if k, ok := msg.(tea.KeyPressMsg); ok {
			switch {
			case key.Matches(k, t.Keys.ClearFilter):
				t.input.Blur()
				t.input.Reset()
				t.applyFilter("", false)
				t.cursor, t.offset = 0, 0
				return t, nil
			case key.Matches(k, t.Keys.AcceptFilter):
				t.input.Blur()
				return t, nil
			case key.Matches(k, t.Keys.FilterMove):
				t.move(map[bool]int{true: -1, false: 1}[k.String() == "up"])
				return t, nil
			}
		}
		var changed bool
		t.input, changed = t.input.Update(msg)
		if changed {
			t.applyFilter(t.input.Value(), true)
			t.cursor, t.offset = 0, 0
		}
		return t, nil
	}
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return t, nil
	}
	page := max(t.bodyHeight()-1, 1)
	switch {
	case key.Matches(k, t.Keys.Up):
		t.move(-1)
	case key.Matches(k, t.Keys.Down):
		t.move(1)
	case key.Matches(k, t.Keys.PageUp):
		t.move(-page)
	case key.Matches(k, t.Keys.PageDown):
		t.move(page)
	case key.Matches(k, t.Keys.Top):
		t.move(-len(t.visible))
	case key.Matches(k, t.Keys.Bottom):
		t.move(len(t.visible))
	case key.Matches(k, t.Keys.Filter):
		t.input.SetValue(t.pattern)
		t.input.Focus()
	case key.Matches(k, t.Keys.ClearFilter) && t.pattern != "":
		t.input.Reset()
		t.applyFilter("", false)
		t.cursor, t.offset = 0, 0
	}
	return t, nil
}

// SelectLine selects the row drawn on line y of the table's view (0 is the
// header), for mouse clicks; it reports whether a row was there.
func (t *Table) SelectLine(y int) bool {
	if y < 1 || y > t.bodyHeight() || len(t.rows) == 0 {
		return false
	}
	i := t.offset + y - 1
	if i >= len(t.visible) {
		return false
	}
	t.cursor = i
	return true
}

// HasFilter reports whether a filter is in effect (so esc clears it rather than
// going back).
func (t Table) HasFilter() bool { return t.pattern != "" || t.input.Focused() }

// AtTop reports whether the selection is on the first visible row (or there
// is none); SelectTop puts it there.
func (t Table) AtTop() bool { return t.cursor <= 0 }
func (t *Table) SelectTop() {
	t.cursor = 0
	t.clampOffset()
}

func (t *Table) move(n int) {
	t.cursor = min(max(t.cursor+n, 0), max(len(t.visible)-1, 0))
	t.clampOffset()
}

func (t Table) showFilterLine() bool { return t.input.Focused() || t.pattern != "" }

func (t Table) bodyHeight() int {
	h := t.height - 1 // header
	if t.showFilterLine() {
		h--
	}
	return max(h, 1)
}

func (t *Table) clampOffset() {
	body := t.bodyHeight()
	if t.cursor < t.offset {
		t.offset = t.cursor
	}
	if t.cursor >= t.offset+body {
		t.offset = t.cursor - body + 1
	}
	t.offset = min(max(t.offset, 0), max(len(t.visible)-body, 0))
}

func (t Table) renderCells(cells []string, widths []int, marks [][]int, base lipgloss.Style, styled bool) string {
	var b strings.Builder
	gap := " "
	if styled {
		gap = base.Render(" ")
	}
	total := 0
	for i, w := range widths {
		if i > 0 {
			b.WriteString(gap)
			total++
		}
		if total >= t.width {
			break
		}
		w = min(w, t.width-total)
		cell := ""
		if i < len(cells) {
			cell = Clean(cells[i])
		}
		cell = ansi.Truncate(cell, w, "…")
		style := base
		if styled && i < len(t.cols) && t.cols[i].Style != nil {
			style = t.cols[i].Style(cell).Inherit(base)
		}
		if i < len(marks) && len(marks[i]) > 0 {
			b.WriteString(t.markCell(cell, marks[i], style))
		} else {
			b.WriteString(style.Render(cell))
		}
		if pad := w - ansi.StringWidth(cell); pad > 0 {
			if styled {
				b.WriteString(base.Render(strings.Repeat(" ", pad)))
			} else {
				b.WriteString(strings.Repeat(" ", pad))
			}
		}
		total += w
	}
	return b.String()
}

// markCell renders cell with the matched byte offsets in the filter style.
func (t Table) markCell(cell string, marks []int, base lipgloss.Style) string {
	var b strings.Builder
	hl := t.theme.Filter.Bold(true).Underline(true)
	m := 0
	for off, r := range cell {
		for m < len(marks) && marks[m] < off {
			m++
		}
		if m < len(marks) && marks[m] == off {
			b.WriteString(hl.Render(string(r)))
		} else {
			b.WriteString(base.Render(string(r)))
		}
	}
	return b.String()
}

func (t Table) styledColumns() bool {
	for _, c := range t.cols {
		if c.Style != nil {
			return true
		}
	}
	return false
}

// notice is a text in place of rows, wrapped to the width in at most n lines
// (an explanation cut at 60 columns would lose what to do).
func (t Table) notice(text string, style lipgloss.Style, n int) []string {
	wrapped := WrapLines(Clean(text), max(t.width, 1))
	if len(wrapped) > max(n, 1) {
		wrapped = wrapped[:max(n, 1)]
		last := len(wrapped) - 1
		wrapped[last] = ansi.Truncate(wrapped[last]+" …", t.width, "…")
	}
	for i, l := range wrapped {
		wrapped[i] = style.Render(ansi.Truncate(strings.TrimRight(l, " "), t.width, "…"))
	}
	return wrapped
}

// View renders the header, the rows in the window and, when filtering, the filter line.
func (t Table) View() string {
	widths := t.widths()
	titles := make([]string, len(t.cols))
	for i := range t.cols {
		titles[i] = t.title(i)
	}
	lines := make([]string, 0, t.height)
	lines = append(lines, t.renderCells(titles, widths, nil, t.theme.Header, false))
	body := t.bodyHeight()
	switch {
	case len(t.rows) == 0 && t.Failed != "":
		lines = append(lines, t.notice(t.Failed, t.theme.Bad, body)...)
	case len(t.rows) == 0 && !t.read:
		loading := t.Loading
		if loading == "" {
			loading = "loading…"
		}
		lines = append(lines, t.notice(loading, t.theme.Muted, body)...)
	case len(t.rows) == 0:
		lines = append(lines, t.notice(t.Empty, t.theme.Muted, body)...)
	case len(t.visible) == 0:
		none := "no rows match the filter (esc clears it)"
		if t.Unsearched != "" {
			none = "no rows on this page match: " + t.Unsearched + "; esc clears the filter"
		}
		lines = append(lines, t.theme.Muted.Render(ansi.Truncate(none, t.width, "…")))
	}
	for i := t.offset; i < len(t.visible) && i < t.offset+body; i++ {
		row := t.visible[i]
		switch {
		case i == t.cursor && t.styledColumns():
			// Styled cells keep their colour on the selection, so each piece
			// carries the selection style.
			lines = append(lines, t.renderCells(t.rows[row].Cells, widths, nil, t.theme.Selected, true))
		case i == t.cursor:
			// The selected row is one style end to end: no highlights inside it.
			lines = append(lines, t.theme.Selected.Render(t.renderCells(t.rows[row].Cells, widths, nil, lipgloss.NewStyle(), false)))
		default:
			lines = append(lines, t.renderCells(t.rows[row].Cells, widths, t.highlights(row), t.theme.Row, t.styledColumns()))
		}
	}
	for len(lines) < 1+body {
		lines = append(lines, "")
	}
	if t.showFilterLine() {
		in := t.input
		if !in.Focused() {
			in.SetValue(t.pattern)
		}
		count := fmt.Sprintf("  %d of %d", len(t.visible), len(t.rows))
		if t.Unsearched != "" {
			count += " on this page; " + t.Unsearched
		}
		lines = append(lines, t.theme.Filter.Render(ansi.Truncate(Clean(in.View())+count, t.width, "…")))
	}
	return strings.Join(lines, "\n")
}
