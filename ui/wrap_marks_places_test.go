package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/vigil-console/vigil/ui/theme"
)

// markedPlaces draws text, at a width, where the console wraps data a user
// acts on outside the detail pane and the dialog: a list's preview, a
// table's notice (an error quoting a value), a form's picked values, error
// and warning, a status notice.
func markedPlaces() map[string]func(text string, width int) string {
	th := theme.New(theme.Options{NoColor: true})
	return map[string]func(string, int) string{
		"list preview": func(text string, width int) string {
			l := NewListDetail(th, []Column{{Title: "ID", Grow: true}})
			l.SetRows([]Row{{ID: "1", Cells: []string{"one"}}})
			l.SetSize(width, 200)
			l.SetPreview(text)
			return l.View()
		},
		"table notice": func(text string, width int) string {
			t := NewTable(th, []Column{{Title: "ID", Grow: true}})
			t.SetSize(width, 200)
			t.Failed = text
			return t.View()
		},
		"form picked": func(text string, width int) string {
			f := NewForm("tag", Field{Key: "users", Label: "users", Multi: true, Choices: []string{"u1"}, ChoiceLabels: []string{text}})
			f.SetPicked("users", []string{"u1"})
			return f.View(th, width)
		},
		"form error": func(text string, width int) string {
			f := NewForm("tag", Field{Key: "id", Label: "id"})
			f.SetError("id", text)
			return f.View(th, width)
		},
		"form warning": func(text string, width int) string {
			f := NewForm("tag", Field{Key: "id", Label: "id", Value: "x", Live: true, Warn: func(string) string { return text }})
			f.CheckLive()
			return f.View(th, width)
		},
		"notice": func(text string, width int) string {
			var ts Toasts
			ts.Push(ToastMsg{Text: text, Bad: true})
			var out []string
			for _, b := range ts.Blocks(th, width, 100) {
				out = append(out, b...)
			}
			return strings.Join(out, "\n")
		},
	}
}

// checkFits fails when a line of out is wider than width.
func checkFits(t *testing.T, place string, width int, text, out string) {
	t.Helper()
	for _, l := range strings.Split(ansi.Strip(out), "\n") {
		if w := ansi.StringWidth(l); w > width {
			t.Errorf("%s at %d columns: a line is %d wide: %q\n(from %q)", place, width, w, l, text)
		}
	}
}

// Wherever an id is wrapped, 'AAA…AB', 'AAA…A B' and 'AAA…A  B' read
// differently: a break inside the word ends in ↩, several spaces at a
// break show as ␣; and every line fits the width, wide runes too.
func TestWrappedDataShowsWhatABreakHides(t *testing.T) {
	a := strings.Repeat("A", 120)
	ids := []string{"no wallet " + a + "B", "no wallet " + a + " B", "no wallet " + a + "  B"}
	for place, draw := range markedPlaces() {
		for _, width := range []int{10, 13, 20, 27, 33, 47, 80} {
			drawn := map[string]string{}
			for _, id := range ids {
				out := draw(id, width)
				checkFits(t, place, width, id, out)
				if other, ok := drawn[ansi.Strip(out)]; ok {
					t.Errorf("%s at %d columns: %q and %q draw the same:\n%s", place, width, other, id, ansi.Strip(out))
				}
				drawn[ansi.Strip(out)] = id
			}
			if out := draw(ids[0], width); !strings.Contains(out, "↩") {
				t.Errorf("%s at %d columns: an id broken inside has no ↩:\n%s", place, width, ansi.Strip(out))
			}
			cjk := "名前 " + strings.Repeat("名前漢字", 30) + "x"
			out := draw(cjk, width)
			checkFits(t, place, width, cjk, out)
			if !strings.Contains(out, "↩") {
				t.Errorf("%s at %d columns: wide runes broken inside have no ↩:\n%s", place, width, ansi.Strip(out))
			}
			// Several spaces land at a break for some length of what precedes them.
			shown := false
			for n := 1; n <= width && !shown; n++ {
				text := "id " + strings.Repeat("A", n) + "   B"
				out := draw(text, width)
				checkFits(t, place, width, text, out)
				shown = strings.Contains(out, "␣␣␣")
			}
			if !shown {
				t.Errorf("%s at %d columns: three spaces at a break are never shown as ␣", place, width)
			}
		}
	}
}
