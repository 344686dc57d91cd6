package ui

import (
	"strings"
	"testing"

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
	tbl.SetRows([]Row{{ID: "1", Cells: []string{"x", strings.Repeat("n", 40), "1"}}})
	if w := tbl.widths(); w[1] != 12 {
		t.Errorf("WHO grew to %d past its Max 12", w[1])
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
	out := ansi.Strip(NewConfirm("Approve this activity?", "Approve", what).View(plainTheme, 60))
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
