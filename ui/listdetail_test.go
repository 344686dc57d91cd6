package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

func whoRows() []Row {
	return []Row{
		{ID: "1", Cells: []string{"5m", "carol"}, Sort: []string{"b"}},
		{ID: "2", Cells: []string{"3h", "alice"}, Sort: []string{"c"}},
		{ID: "3", Cells: []string{"2d", "bob"}, Sort: []string{"a"}},
	}
}

func firstColumn(view string) []string {
	var out []string
	for _, l := range strings.Split(ansi.Strip(view), "\n")[1:] {
		if f := strings.Fields(l); len(f) > 1 {
			out = append(out, f[1])
		}
	}
	return out
}

// o sorts by the next column (by its Sort value when the row has one), O
// reverses, the header marks the column, and the selection stays on its row.
func TestListDetailSortsByAnyColumn(t *testing.T) {
	l := NewListDetail(plainTheme, []Column{{Title: "AGE", Width: 4}, {Title: "WHO", Width: 6, Grow: true}})
	l.SetSize(40, 10)
	l.SetRows(whoRows())
	l, _ = l.Update(press("j")) // select alice
	if got := firstColumn(l.View()); strings.Join(got, ",") != "carol,alice,bob" {
		t.Fatalf("unsorted order %v, want the order given", got)
	}
	l, _ = l.Update(press("o"))
	if got := firstColumn(l.View()); strings.Join(got, ",") != "bob,carol,alice" {
		t.Errorf("sorted by AGE (its sort values a<b<c): %v", got)
	}
	if head := strings.Split(ansi.Strip(l.View()), "\n")[0]; !strings.Contains(head, "AGE ▲") {
		t.Errorf("header does not show the sort: %q", head)
	}
	l, _ = l.Update(press("O"))
	if got := firstColumn(l.View()); strings.Join(got, ",") != "alice,carol,bob" {
		t.Errorf("reversed: %v", got)
	}
	if !strings.Contains(ansi.Strip(l.View()), "AGE ▼") || l.SortHelp() != "sorted by AGE ▼" {
		t.Errorf("header/sort help after O: %q", l.SortHelp())
	}
	if l.Table.SelectedID() != "2" {
		t.Errorf("selection moved to %s; it follows its row (alice)", l.Table.SelectedID())
	}
	l, _ = l.Update(press("o"))
	if got := firstColumn(l.View()); strings.Join(got, ",") != "alice,bob,carol" {
		t.Errorf("sorted by WHO: %v", got)
	}
	l, _ = l.Update(press("o")) // past the last column: back to the order given
	if got := firstColumn(l.View()); strings.Join(got, ",") != "carol,alice,bob" {
		t.Errorf("after the last column: %v", got)
	}
}

// Spare width goes to the column whose cells need it, not only to the Grow one.
func TestColumnWidthsFollowTheContent(t *testing.T) {
	tbl := NewTable(plainTheme, []Column{{Title: "WHAT", Width: 10, Grow: true}, {Title: "WHO", Width: 3, Max: 12}, {Title: "N", Width: 1}})
	tbl.SetSize(60, 5)
	tbl.SetRows([]Row{{ID: "1", Cells: []string{"delete 1 API key of operator", "operator", "1"}}})
	out := ansi.Strip(tbl.View())
	if !strings.Contains(out, "delete 1 API key of operator") || !strings.Contains(out, "operator") {
		t.Errorf("a cell was cut though the width holds it:\n%s", out)
	}
	w := tbl.widths()
	if w[0]+w[1]+w[2]+2 != 60 || w[1] != 8 {
		t.Errorf("widths %v: WHO should take its 8 cells, WHAT the rest of 60", w)
	}
	// Max holds while the Grow column needs the width…
	tbl.SetRows([]Row{{ID: "1", Cells: []string{strings.Repeat("w", 80), strings.Repeat("n", 40), "1"}}})
	if w := tbl.widths(); w[1] != 12 {
		t.Errorf("WHO is %d wide, want its Max 12 while WHAT is cut", w[1])
	}
	// …but once the Grow column shows its cells in full, a cut column takes the
	// rest rather than leave it blank in the Grow column.
	tbl.SetRows([]Row{{ID: "1", Cells: []string{"x", strings.Repeat("n", 40), "1"}}})
	if out := ansi.Strip(tbl.View()); !strings.Contains(out, strings.Repeat("n", 40)) {
		t.Errorf("WHO is cut while WHAT has room to spare:\n%s", out)
	}
}

// activityLikeTable is the Activities list's shape: small columns around a Grow
// column, sorted by AGE.
func activityLikeTable(width int, what string) Table {
	tbl := NewTable(plainTheme, []Column{
		{Title: "AGE", Width: 4}, {Title: "WHAT", Width: 20, Grow: true}, {Title: "REQUESTER", Width: 9, Max: 16},
		{Title: "STATUS", Width: 9, Max: 17}, {Title: "VOTES", Width: 5}, {Title: "YOU", Width: 4}})
	tbl.SetSize(width, 6)
	tbl.SetRows([]Row{
		{ID: "1", Cells: []string{"5m", what, "alice", "CONSENSUS_NEEDED", "1/2 ✗1", "vote"}},
		{ID: "2", Cells: []string{"2h", "create user tag ops", "bob", "COMPLETED", "2/2", ""}},
	})
	tbl.SortBy(0, false)
	return tbl
}

// One row with a very long WHAT must not squeeze the small columns: they show
// their content and the sort mark in full, and WHAT is the one that is cut.
func TestLongGrowCellDoesNotSqueezeSmallColumns(t *testing.T) {
	long := "create policy " + strings.Repeat("allow-ops-to-rotate-keys-", 10)
	for _, width := range []int{120, 80, 60} {
		out := ansi.Strip(activityLikeTable(width, long).View())
		for _, want := range []string{"AGE ▲", "CONSENSUS_NEEDED", "1/2 ✗1", "REQUESTER", "vote"} {
			if !strings.Contains(out, want) {
				t.Errorf("at %d columns %q is cut:\n%s", width, want, out)
			}
		}
		if !strings.Contains(out, "create policy") || !strings.Contains(out, "… alice") {
			t.Errorf("at %d columns the long WHAT is not the column cut:\n%s", width, out)
		}
		for _, l := range strings.Split(out, "\n") {
			if w := ansi.StringWidth(l); w > width {
				t.Errorf("at %d columns a line is %d wide:\n%s", width, w, out)
			}
		}
	}
	// Narrower than the columns' least widths, WHAT gives way (not below
	// growFloor) before a column at the right edge is cut.
	tbl := activityLikeTable(50, long)
	w := tbl.widths()
	if sum := w[0] + w[1] + w[2] + w[3] + w[4] + w[5] + 5; w[1] >= 20 || w[1] < growFloor || sum != 50 {
		t.Errorf("at 50 columns widths %v (%d in all): WHAT should give way, down to %d", w, sum, growFloor)
	}
	if out := ansi.Strip(tbl.View()); !strings.Contains(out, "YOU") {
		t.Errorf("at 50 columns YOU is off the edge:\n%s", out)
	}
}

// The preview sits under the rows; a click selects the row drawn there; an open
// detail replaces the list and wraps its text at word boundaries.
func TestListDetailPreviewClickAndWrappedDetail(t *testing.T) {
	l := NewListDetail(plainTheme, []Column{{Title: "AGE", Width: 4}, {Title: "WHO", Width: 6, Grow: true}})
	l.SetSize(30, 12)
	l.SetRows(whoRows())
	l.SetPreview("why: the selected row in words")
	lines := strings.Split(ansi.Strip(l.View()), "\n")
	if len(lines) < 6 || !strings.HasPrefix(lines[5], "why:") {
		t.Fatalf("preview is not under the rows:\n%s", strings.Join(lines, "\n"))
	}
	if !l.ClickRow(3) || l.Table.SelectedID() != "3" {
		t.Errorf("click on line 3 selected %q, want row 3", l.Table.SelectedID())
	}
	l.SetDetail("notes: the quick brown fox jumps over the lazy dog")
	l.Open()
	if l.ClickRow(1) {
		t.Error("a click went through the open detail")
	}
	for _, line := range strings.Split(ansi.Strip(l.View()), "\n") {
		line = strings.TrimRight(line, " ")
		if ansi.StringWidth(line) > 30 {
			t.Errorf("line wider than the pane: %q", line)
		}
		for _, w := range []string{"quic", "brow", "jump", "laz"} {
			if strings.HasSuffix(line, w) {
				t.Errorf("a word was cut at the line's end: %q", line)
			}
		}
	}
	if !strings.Contains(ansi.Strip(l.View()), "jumps") {
		t.Errorf("detail text missing:\n%s", l.View())
	}
}

// A confirm dialog wraps a long field under its value instead of cutting it:
// what is approved is read in full.
func TestConfirmWrapsLongFieldsInFull(t *testing.T) {
	what := "what:        create policy \"allow the treasury team to tag users for quarterly review\" (ALLOW)"
	out := ansi.Strip(NewConfirm("Approve this activity?", "Approve", what).View(plainTheme, 60, 0))
	flat := strings.Join(strings.Fields(strings.NewReplacer("│", " ", "╭", " ", "╮", " ", "╰", " ", "╯", " ", "─", " ").Replace(out)), " ")
	if !strings.Contains(flat, "create policy \"allow the treasury team to tag users for quarterly review\" (ALLOW)") || strings.Contains(out, "…") {
		t.Errorf("the field is cut:\n%s", out)
	}
	for _, l := range strings.Split(out, "\n") {
		if ansi.StringWidth(l) > 60 {
			t.Errorf("line wider than 60: %q", l)
		}
	}
}

// Two long columns without a Max (a policy's condition and consensus) share the
// width: neither takes it all while the other is cut to its least width, and
// a short cell shows whole.
func TestLongColumnsShareTheWidth(t *testing.T) {
	tbl := NewTable(plainTheme, []Column{{Title: "NAME", Width: 16, Max: 40, Grow: true}, {Title: "EFFECT", Width: 6},
		{Title: "CONDITION", Width: 16}, {Title: "CONSENSUS", Width: 12}, {Title: "UPDATED", Width: 7}})
	tbl.SetSize(160, 6)
	tbl.SetRows([]Row{
		{ID: "1", Cells: []string{"Operator changes need two ops approvers", "ALLOW", strings.Repeat("c", 120), strings.Repeat("k", 95), "5s"}},
		{ID: "2", Cells: []string{"Never delete the treasury account", "DENY", "activity.type == 'X'", "(always)", "5s"}},
	})
	w := tbl.widths()
	if w[2] < 40 || w[3] < 40 || w[0] < 30 {
		t.Errorf("widths %v: CONDITION and CONSENSUS should share what NAME leaves", w)
	}
	if sum := w[0] + w[1] + w[2] + w[3] + w[4] + 4; sum != 160 {
		t.Errorf("widths %v fill %d of 160", w, sum)
	}
	// At 80 columns a condition that fits whole shows whole.
	tbl.SetSize(80, 6)
	tbl.SetRows([]Row{{ID: "1", Cells: []string{"Ops need two approvers", "ALLOW", "activity.resource == 'USER'", strings.Repeat("k", 60), "2d"}}})
	if out := ansi.Strip(tbl.View()); !strings.Contains(out, "activity.resource == 'USER'") {
		t.Errorf("a condition that fits is cut:\n%s", out)
	}
}

// An empty table's explanation wraps rather than lose its end at a narrow width.
func TestEmptyTextWraps(t *testing.T) {
	tbl := NewTable(plainTheme, []Column{{Title: "TIME", Width: 8}, {Title: "WHAT", Width: 10, Grow: true}})
	tbl.SetSize(30, 8)
	tbl.Empty = "no webhook listener here: this demo joined the service of the first demo, which receives them"
	tbl.SetRows(nil)
	tbl.SetRead(true)
	out := ansi.Strip(tbl.View())
	if !strings.Contains(strings.Join(strings.Fields(out), " "), "the first demo, which receives them") {
		t.Errorf("the end of the empty text is lost:\n%s", out)
	}
	for _, l := range strings.Split(out, "\n") {
		if ansi.StringWidth(l) > 30 {
			t.Errorf("a line is wider than 30: %q", l)
		}
	}
	if n := strings.Count(out, "\n") + 1; n > 8 {
		t.Errorf("the table is %d lines in 8", n)
	}
}

// The preview takes the height the rows leave, and says how much it could not
// show rather than cut it without a word.
func TestPreviewUsesTheRoomAndCountsTheRest(t *testing.T) {
	l := NewListDetail(plainTheme, []Column{{Title: "NAME", Width: 10, Grow: true}})
	l.SetSize(40, 12)
	l.SetRows([]Row{{ID: "1", Cells: []string{"one"}}, {ID: "2", Cells: []string{"two"}}})
	var lines []string
	for i := range 20 {
		lines = append(lines, fmt.Sprintf("status line %d", i+1))
	}
	l.SetPreview(strings.Join(lines, "\n"))
	out := ansi.Strip(l.View())
	// 12 lines: the header and two rows, a blank line, 8 preview lines.
	if !strings.Contains(out, "status line 7") || !strings.Contains(out, "… 13 more lines") {
		t.Errorf("the preview:\n%s", out)
	}
	if n := strings.Count(out, "\n") + 1; n > 12 {
		t.Errorf("%d lines in a height of 12:\n%s", n, out)
	}
}

// Until its rows are read, an empty table says it is loading, not that
// there are none; after a failure, that they could not be read.
func TestEmptyTableSaysLoadingUntilRead(t *testing.T) {
	tbl := NewTable(plainTheme, []Column{{Title: "NAME", Width: 10, Grow: true}})
	tbl.SetSize(60, 5)
	tbl.Empty, tbl.Loading = "no users", "loading the users…"
	view := func() string { return ansi.Strip(tbl.View()) }
	if out := view(); strings.Contains(out, "no users") || !strings.Contains(out, "loading the users…") {
		t.Errorf("before the rows are read: %q", out)
	}
	tbl.Failed = "not loaded: refused"
	if out := view(); !strings.Contains(out, "not loaded: refused") || strings.Contains(out, "loading") {
		t.Errorf("after a failed first read: %q", out)
	}
	tbl.Failed = ""
	tbl.SetRows(nil)
	if out := view(); !strings.Contains(out, "loading the users…") {
		t.Errorf("rows set but not marked read: %q", out)
	}
	tbl.SetRead(true)
	if out := view(); !strings.Contains(out, "no users") {
		t.Errorf("read and empty: %q", out)
	}
	tbl.SetRead(false)
	tbl.Loading = ""
	if out := view(); !strings.Contains(out, "loading…") {
		t.Errorf("unread again, no Loading text: %q", out)
	}
}

// What an empty table says may quote an error from the network: it reaches
// the terminal cleaned.
func TestEmptyTextIsCleaned(t *testing.T) {
	tbl := NewTable(plainTheme, []Column{{Title: "NAME", Width: 10, Grow: true}})
	tbl.SetSize(60, 5)
	tbl.Failed = "not loaded: \x1b]52;c;ZXZpbA==\x07 \x1b[2J\u202e"
	tbl.SetRows(nil)
	if out := tbl.View(); strings.ContainsAny(out, "\x07\u202e") || strings.Contains(out, "\x1b]") || strings.Contains(out, "\x1b[2J") {
		t.Errorf("control characters reached the view: %q", out)
	}
}

// What does not fit the window scrolls, and the dialog says how much is
// hidden, so a voter never confirms a cut intent without a sign of it.
func TestConfirmTallerThanTheWindowScrolls(t *testing.T) {
	var lines []string
	for i := range 30 {
		// Lines of different widths: the box must keep one width as it scrolls.
		l := fmt.Sprintf("field %02d:   value %02d", i, i)
		if i == 25 {
			l += strings.Repeat(" and more", 3) // the one wide line
		}
		lines = append(lines, l)
	}
	c := NewConfirm("Approve this activity?", "Approve", lines...)
	const w, h = 60, 16
	if !c.Scrollable(w, h) || NewConfirm("Approve?", "Approve", "one line").Scrollable(w, h) {
		t.Error("Scrollable is wrong: help would list scroll keys that do nothing, or hide ones that work")
	}
	view := func() string { return ansi.Strip(c.View(plainTheme, w, h)) }
	out := view()
	if n := strings.Count(out, "\n") + 1; n > h {
		t.Fatalf("%d lines in a window of %d:\n%s", n, h, out)
	}
	if !strings.Contains(out, "field 00") || strings.Contains(out, "field 29") || !strings.Contains(out, "more lines: scroll to the end") {
		t.Fatalf("first view:\n%s", out)
	}
	width := lipgloss.Width(c.View(plainTheme, w, h))
	for range 40 {
		c.Scroll(tea.KeyPressMsg{Code: tea.KeyDown}, w, h)
		if got := lipgloss.Width(c.View(plainTheme, w, h)); got != width {
			t.Fatalf("the box is %d wide after scrolling, %d before", got, width)
		}
	}
	out = view()
	if !strings.Contains(out, "field 29") || strings.Contains(out, "more lines") || !strings.Contains(out, "above") {
		t.Errorf("scrolled to the end:\n%s", out)
	}
	if c.Scroll(tea.KeyPressMsg{Code: 'y', Text: "y"}, w, h) || c.Answer(tea.KeyPressMsg{Code: 'y', Text: "y"}) != Yes {
		t.Error("y must still answer")
	}
	for range 10 {
		c.Scroll(tea.KeyPressMsg{Code: tea.KeyPgUp}, w, h)
	}
	if out = view(); !strings.Contains(out, "field 00") {
		t.Errorf("back at the top:\n%s", out)
	}
}

// A detail opened while the filter takes keys (a program opening a row on
// its own) keeps the filter's text but not its focus: closing the detail
// must not leave a filter that silently takes the next keys.
func TestOpenReleasesTheFilter(t *testing.T) {
	l := NewListDetail(plainTheme, []Column{{Title: "AGE", Width: 4}, {Title: "WHO", Width: 6, Grow: true}})
	l.SetSize(40, 10)
	l.SetRows(whoRows())
	l, _ = l.Update(press("/"))
	l, _ = l.Update(press("b"))
	l.Open()
	l.Close()
	if l.Filtering() {
		t.Error("after a detail opened and closed, the filter still takes keys")
	}
	if got := l.Table.FilterPattern(); got != "b" {
		t.Errorf("the filter typed was %q, now %q", "b", got)
	}
}
