package screens

import (
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vigil-console/vigil/ui"
	"github.com/vigil-console/vigil/ui/theme"
)

// wrapPlaces draws an error quoting a value, at a width, where a screen
// wraps it itself: under a form in its box, under an editor, in a picker
// after a typed value is refused.
func wrapPlaces() map[string]func(text string, width int) string {
	th := theme.New(theme.Options{NoColor: true})
	return map[string]func(string, int) string{
		"form box": func(text string, width int) string {
			return formBox(th, ui.NewForm("Tag", ui.Field{Key: "id", Label: "id"}), text, "", formBoxKeys, width+8, 60)
		},
		"editor notes": func(text string, width int) string {
			return strings.Join(editorNotes(th, width, text, nil), "\n")
		},
		"picker": func(text string, width int) string {
			p := newPickerDialog("users", "users", []string{"u1"}, []string{"alice"}, nil, func([]string) tea.Msg { return nil })
			p.acceptTyped(func(string) (string, error) { return "", errors.New(text) })
			p.startFilter("zzz")
			d, _ := p.Update(keyPress("enter"))
			if d == nil {
				return "the picker closed"
			}
			return d.View(th, width, 60)
		},
	}
}

// An error that quotes an id says where the id was broken: 'AAA…AB',
// 'AAA…A B' and 'AAA…A  B' draw differently (↩ for a break inside a word,
// ␣ for each of several spaces), wide runes too, and the marks do not widen
// what the error is drawn in (editor notes fit the width they are given).
func TestScreensWrapShowsWhatABreakHides(t *testing.T) {
	a := strings.Repeat("A", 120)
	ids := []string{"no user " + a + "B", "no user " + a + " B", "no user " + a + "  B"}
	for place, draw := range wrapPlaces() {
		for _, width := range []int{10, 20, 27, 33, 47, 80} {
			// A word longer than the line fills it: nothing may be wider.
			room := lipgloss.Width(draw(strings.Repeat("x", 300), width))
			fits := func(text, out string) {
				t.Helper()
				if w := lipgloss.Width(out); w > room {
					t.Errorf("%s at %d columns: %d wide, %d with a long word:\n%s\n(from %q)", place, width, w, room, ansi.Strip(out), text)
				}
			}
			if place == "editor notes" && room > width {
				t.Errorf("editor notes at %d columns are %d wide", width, room)
			}
			drawn := map[string]string{}
			for _, id := range ids {
				out := ansi.Strip(draw(id, width))
				fits(id, out)
				if other, ok := drawn[out]; ok {
					t.Errorf("%s at %d columns: %q and %q draw the same:\n%s", place, width, other, id, out)
				}
				drawn[out] = id
			}
			if out := draw(ids[0], width); !strings.Contains(out, "↩") {
				t.Errorf("%s at %d columns: an id broken inside has no ↩:\n%s", place, width, ansi.Strip(out))
			}
			cjk := "名前 " + strings.Repeat("名前漢字", 30) + "x"
			out := draw(cjk, width)
			fits(cjk, out)
			if !strings.Contains(out, "↩") {
				t.Errorf("%s at %d columns: wide runes broken inside have no ↩:\n%s", place, width, ansi.Strip(out))
			}
			shown := false
			for n := 1; n <= 90 && !shown; n++ {
				text := "id " + strings.Repeat("A", n) + "   B"
				out := draw(text, width)
				fits(text, out)
				shown = strings.Contains(out, "␣␣␣")
			}
			if !shown {
				t.Errorf("%s at %d columns: three spaces at a break are never shown as ␣", place, width)
			}
		}
	}
}
