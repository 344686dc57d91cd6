package screens

import (
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vigil-console/vigil/ui"
	"github.com/vigil-console/vigil/ui/theme"
)

const formBoxKeys = "* required · ctrl+s submit · esc cancel"

// tallForm has ten text fields and a last choice, taller than a 14-row window.
func tallForm() ui.Form {
	var fields []ui.Field
	for _, k := range []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"} {
		fields = append(fields, ui.Field{Key: k, Label: "Field " + k})
	}
	fields = append(fields, ui.Field{Key: "last", Label: "Generate app proofs", Choices: []string{"no", "yes"}})
	return ui.NewForm("Tall form", fields...)
}

// A form taller than the window keeps its title and keys line, and says how
// many lines of fields are hidden below the focused first field.
func TestFormBoxTallFormMarksHiddenFields(t *testing.T) {
	out := ansi.Strip(formBox(theme.New(theme.Options{}), tallForm(), "", "", formBoxKeys, 80, 14))
	if strings.Contains(out, "Generate app proofs") {
		t.Fatalf("setup: the whole form fits:\n%s", out)
	}
	for _, want := range []string{"Tall form", "Field a", "below", "ctrl+s submit · esc cancel"} {
		if !strings.Contains(out, want) {
			t.Errorf("%q not on screen:\n%s", want, out)
		}
	}
	if strings.Contains(out, "above") {
		t.Errorf("nothing is hidden above the first field, yet a mark says so:\n%s", out)
	}
	if h := lipgloss.Height(out); h > 14 {
		t.Errorf("box is %d rows, the window 14:\n%s", h, out)
	}
}

// Focused on the last field, the title stays on top, with a mark for the
// fields scrolled out above it, and the keys line stays at the bottom.
func TestFormBoxFocusOnLastFieldKeepsTitle(t *testing.T) {
	f := tallForm()
	for range 10 {
		f, _ = f.Update(keyPress("tab"))
	}
	out := ansi.Strip(formBox(theme.New(theme.Options{}), f, "", "", formBoxKeys, 80, 14))
	for _, want := range []string{"Tall form", "above", "Generate app proofs", "ctrl+s submit · esc cancel"} {
		if !strings.Contains(out, want) {
			t.Errorf("%q not on screen:\n%s", want, out)
		}
	}
	if strings.Contains(out, "below") {
		t.Errorf("nothing is hidden below the last field, yet a mark says so:\n%s", out)
	}
}

// The form's own error (why a submit was refused) stays on screen however
// the fields scroll.
func TestFormBoxTallFormKeepsErrorInView(t *testing.T) {
	out := ansi.Strip(formBox(theme.New(theme.Options{}), tallForm(), "the service refused the request: SOMETHING", "", formBoxKeys, 80, 14))
	for _, want := range []string{"Tall form", "SOMETHING", "ctrl+s submit"} {
		if !strings.Contains(out, want) {
			t.Errorf("%q not on screen:\n%s", want, out)
		}
	}
	if h := lipgloss.Height(out); h > 14 {
		t.Errorf("box is %d rows, the window 14:\n%s", h, out)
	}
}

// A form that fits is drawn whole, with no marks.
func TestFormBoxShortFormHasNoMarks(t *testing.T) {
	f := ui.NewForm("Short", ui.Field{Key: "a", Label: "Field a"})
	out := ansi.Strip(formBox(theme.New(theme.Options{}), f, "", "", formBoxKeys, 80, 24))
	if strings.Contains(out, "above") || strings.Contains(out, "below") {
		t.Errorf("a form that fits shows scroll marks:\n%s", out)
	}
}

// In a short window the box drops its blank lines and the hint before the
// focused field's typing line, and still fits.
func TestFormBoxShortWindowKeepsFocusedField(t *testing.T) {
	f := tallForm()
	for range 5 {
		f, _ = f.Update(keyPress("tab"))
	}
	out := ansi.Strip(formBox(theme.New(theme.Options{}), f, "refused: X", "a hint", formBoxKeys, 80, 9))
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		if strings.Contains(l, "▸ Field f") && (i+1 >= len(lines) || !strings.Contains(lines[i+1], "█")) {
			t.Errorf("the focused field's typing line is cut:\n%s", out)
		}
	}
	for _, want := range []string{"Tall form", "▸ Field f", "above", "below", "refused: X", "ctrl+s submit"} {
		if !strings.Contains(out, want) {
			t.Errorf("%q not on screen:\n%s", want, out)
		}
	}
	if h := lipgloss.Height(out); h > 9 {
		t.Errorf("box is %d rows, the window 9:\n%s", h, out)
	}
}
