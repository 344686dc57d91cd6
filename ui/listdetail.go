package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vigil-console/vigil/ui/theme"
)

// ListDetail is the list-plus-detail every record screen is built on: a Table
// (fuzzy filter, sorting by any column, column widths that follow the content,
// row clicks) and, once a row is opened, a Detail pane of word-wrapped text in
// its place. Under the list it can show a short preview of the selected row.
//
// The screen owns what the rows and the detail say and when a detail opens (it
// usually fetches something): it calls SetRows, Open, Close and SetDetail. The
// component owns the layout and the keys that only move or sort. Its keys are
// exported so the screen names them in its KeyActions (screens/keymap.go) and
// users can rebind them.
type ListDetail struct {
	Table Table
	Pane  Detail
	Keys  ListDetailKeys
	// Preview is shown under the list while no detail is open (the selected row
	// in words); "" = none. The screen styles it from cleaned parts; it is
	// word-wrapped and never takes more than half the height. Set it with
	// SetPreview.
	Preview string
	// PreviewMore says where the lines of a cut preview can be read; "" = a
	// taller window.
	PreviewMore string

	theme         *theme.Theme
	open          bool
	width, height int
}

// ListDetailKeys are the component's own keys. Open and Back are matched by the
// screen (opening usually loads something); Sort and ReverseSort by the
// component.
type ListDetailKeys struct {
	Open, Back, Sort, ReverseSort key.Binding
}

// DefaultListDetailKeys: o and O sort, keys no screen uses for anything else.
func DefaultListDetailKeys() ListDetailKeys {
	return ListDetailKeys{
		Open:        key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open")),
		Back:        key.NewBinding(key.WithKeys("esc", "backspace"), key.WithHelp("esc", "back")),
		Sort:        key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "sort by next column")),
		ReverseSort: key.NewBinding(key.WithKeys("O"), key.WithHelp("O", "reverse sort")),
	}
}

// NewListDetail returns an empty list with these columns.
func NewListDetail(th *theme.Theme, cols []Column) ListDetail {
	return ListDetail{Table: NewTable(th, cols), Pane: NewDetail(th), Keys: DefaultListDetailKeys(), theme: th,
		width: 80, height: 10}
}

// SetTheme changes the styles of the list and the pane.
func (l *ListDetail) SetTheme(th *theme.Theme) {
	l.theme = th
	l.Table.SetTheme(th)
	l.Pane.SetTheme(th)
}

// SetSize gives the component its size in cells; the list (with its preview) or
// the detail fills it.
func (l *ListDetail) SetSize(width, height int) {
	l.width, l.height = max(width, 1), max(height, 1)
	l.Pane.SetSize(l.width, l.height)
	l.layoutTable()
}

// SetPreview replaces the preview under the list.
func (l *ListDetail) SetPreview(s string) {
	l.Preview = s
	l.layoutTable()
}

// previewLines is the preview word-wrapped to the width, in the height the
// list's rows leave (at least half the height); what does not fit is counted
// on its last line rather than cut without a word.
func (l *ListDetail) previewLines() []string {
	if l.Preview == "" {
		return nil
	}
	var out []string
	for _, line := range strings.Split(l.Preview, "\n") {
		out = append(out, WrapLines(line, l.width)...)
	}
	limit := max(l.height/2, l.height-l.rowsHeight()-1)
	if len(out) > limit && limit > 0 {
		more := len(out) - limit + 1
		where := l.PreviewMore
		if where == "" {
			where = "a taller window shows them"
		}
		out = append(out[:limit-1], ansi.Truncate(fmt.Sprintf("… %d more lines (%s)", more, where), max(l.width, 1), "…"))
	}
	return out
}

// rowsHeight is the height the table's rows take: the header, the rows (or
// the empty notice) and the filter line.
func (l *ListDetail) rowsHeight() int {
	rows := 1 + max(l.Table.Visible(), 1)
	if l.Table.HasFilter() {
		rows++
	}
	return rows
}

// layoutTable sizes the table: the whole height, or, with a preview, as many
// lines as its rows take (and a filter line), so the preview sits under them.
func (l *ListDetail) layoutTable() {
	h := l.height
	if n := len(l.previewLines()); n > 0 {
		h = min(h-n-1, l.rowsHeight()) // a blank line before the preview
	}
	l.Table.SetSize(l.width, max(h, 2))
}

// SetRows replaces the list's rows (see Table.SetRows).
func (l *ListDetail) SetRows(rows []Row) {
	l.Table.SetRows(rows)
	l.layoutTable()
}

// SetRowsKeepingPlace is SetRows, but a selected row that is gone leaves the
// cursor on its neighbour, not the first row (see Table.SetRowsKeepingPlace).
func (l *ListDetail) SetRowsKeepingPlace(rows []Row) Moved {
	moved := l.Table.SetRowsKeepingPlace(rows)
	l.layoutTable()
	return moved
}

// SetRowsKeepingPlacePassing is SetRowsKeepingPlace, the cursor passing over
// the rows passOver holds (see Table.SetRowsKeepingPlacePassing).
func (l *ListDetail) SetRowsKeepingPlacePassing(rows []Row, passOver func(id string) bool) Moved {
	moved := l.Table.SetRowsKeepingPlacePassing(rows, passOver)
	l.layoutTable()
	return moved
}

// IsOpen reports whether the detail shows.
func (l ListDetail) IsOpen() bool { return l.open }

// Open shows the detail pane, scrolled to the top. An open filter is kept
// but stops taking keys: hidden under the detail it must not take them
// back when the detail closes.
func (l *ListDetail) Open() {
	l.open = true
	l.Table.input.Blur()
	l.Pane.GotoTop()
}

// Close goes back to the list.
func (l *ListDetail) Close() { l.open = false }

// SetDetail replaces the detail's text (cleaned and word-wrapped by the pane),
// keeping the scroll position.
func (l *ListDetail) SetDetail(s string) { l.Pane.SetContent(s) }

// FilterKeyInDetail reports whether k is the list's filter key pressed in
// the open detail. Screens go back to the list and give it k: "/" then a word
// means "search", and the word's letters must not run as the detail's
// commands (a d and a y in it once proposed a deletion).
func (l ListDetail) FilterKeyInDetail(k tea.KeyPressMsg) bool {
	return l.open && key.Matches(k, l.Table.Keys.Filter)
}

// Filtering reports whether the list's filter is taking keys.
func (l ListDetail) Filtering() bool { return !l.open && l.Table.Filtering() }

// Update scrolls the open detail, or moves, filters and sorts the list.
func (l ListDetail) Update(msg tea.Msg) (ListDetail, tea.Cmd) {
	var cmd tea.Cmd
	if l.open {
		l.Pane, cmd = l.Pane.Update(msg)
		return l, cmd
	}
	if k, ok := msg.(tea.KeyPressMsg); ok && !l.Table.Filtering() {
		switch {
		case key.Matches(k, l.Keys.Sort):
			l.Table.CycleSort()
			return l, nil
		case key.Matches(k, l.Keys.ReverseSort):
			l.Table.ReverseSort()
			return l, nil
		}
	}
	l.Table, cmd = l.Table.Update(msg)
	l.layoutTable() // the filter line comes and goes, the visible rows change
	return l, cmd
}

// ClickRow selects the row drawn on line y of the component (0 = the table's
// header); it reports whether a row was there. Clicks on an open detail do
// nothing.
func (l *ListDetail) ClickRow(y int) bool {
	if l.open || l.Table.Filtering() {
		return false
	}
	return l.Table.SelectLine(y)
}

// SortHelp describes the sort in effect for a heading: "sorted by AGE ▼", or "".
func (l ListDetail) SortHelp() string {
	col, desc := l.Table.SortColumn()
	if col < 0 || col >= len(l.Table.cols) {
		return ""
	}
	mark := "▲"
	if desc {
		mark = "▼"
	}
	return "sorted by " + l.Table.cols[col].Title + " " + mark
}

// View renders the detail, or the list and its preview, in the size given.
func (l ListDetail) View() string {
	if l.open {
		return l.Pane.View()
	}
	lines := strings.Split(l.Table.View(), "\n")
	if p := l.previewLines(); len(p) > 0 {
		lines = append(append(lines, ""), p...)
	}
	if len(lines) > l.height {
		lines = lines[:l.height]
	}
	return strings.Join(lines, "\n")
}

// Restore applies a table state kept earlier (see Table.Restore) and lays
// the list out for it.
func (l *ListDetail) Restore(s TableState) {
	l.Table.Restore(s)
	l.layoutTable()
}

// FixedKeys are the keys the component always answers and that are not
// rebound: the list's movement and filter keys and the open detail's
// scrolling. A screen's action must not be given one (screens' Rebind).
func (l ListDetail) FixedKeys() []key.Binding {
	k := l.Table.Keys
	return append([]key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom, k.Filter}, l.Pane.KeyBindings()...)
}
