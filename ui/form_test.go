package ui

import (
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

func policyForm() Form {
	return NewForm("Create policy",
		Field{Key: "name", Label: "Name", Required: true},
		Field{Key: "effect", Label: "Effect", Choices: []string{"EFFECT_ALLOW", "EFFECT_DENY"}},
		Field{Key: "condition", Label: "Condition", Validate: func(s string) error {
			if strings.Count(s, "(") != strings.Count(s, ")") {
				return errors.New("unbalanced parentheses")
			}
			return nil
		}},
	)
}

func typeForm(f Form, s string) Form {
	for _, r := range s {
		f, _ = f.Update(press(string(r)))
	}
	return f
}

func TestFormFillsAndSubmits(t *testing.T) {
	f := policyForm()
	f = typeForm(f, "ops may deploy")
	f, _ = f.Update(press("enter")) // next field
	f, _ = f.Update(tea.KeyPressMsg{Code: tea.KeyRight})
	f, _ = f.Update(press("enter"))
	f = typeForm(f, "activity.type == 'X'")
	f, res := f.Update(press("enter")) // last field: submit
	if res != Submitted {
		t.Fatalf("result %v, want Submitted", res)
	}
	want := map[string]string{"name": "ops may deploy", "effect": "EFFECT_DENY", "condition": "activity.type == 'X'"}
	for k, v := range want {
		if f.Values()[k] != v {
			t.Errorf("%s = %q, want %q", k, f.Values()[k], v)
		}
	}
}

func TestFormRefusesInvalidAndFocusesTheError(t *testing.T) {
	f := policyForm()
	f, _ = f.Update(press("enter"))
	f, _ = f.Update(press("enter"))
	f = typeForm(f, "(a")
	f, res := f.Update(tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl})
	if res != Editing {
		t.Fatal("submitted with a missing required field")
	}
	out := ansi.Strip(f.View(plainTheme, 60))
	for _, want := range []string{"Name is required", "unbalanced parentheses"} {
		if !strings.Contains(out, want) {
			t.Errorf("view lacks %q:\n%s", want, out)
		}
	}
	// Focus went to the first error: typing fills Name.
	f = typeForm(f, "x")
	if f.Values()["name"] != "x" {
		t.Errorf("focus not on the first invalid field; values %v", f.Values())
	}
	if _, res := f.Update(press("esc")); res != Cancelled {
		t.Error("esc did not cancel")
	}
}

func TestFormLettersAreText(t *testing.T) {
	f := typeForm(policyForm(), "q?/1y")
	if f.Values()["name"] != "q?/1y" {
		t.Errorf("name %q: letters that are commands elsewhere must be text in a form", f.Values()["name"])
	}
}

type colErr struct{ col int }

func (e colErr) Error() string { return "unexpected token" }
func (e colErr) Column() int   { return e.col }

func liveForm() Form {
	return NewForm("Live",
		Field{Key: "expr", Label: "Expression", Live: true, CharLimit: 2048, Validate: func(s string) error {
			if i := strings.Index(s, "!"); i >= 0 {
				return colErr{col: len([]rune(s[:i])) + 1}
			}
			return nil
		}},
		Field{Key: "notes", Label: "Notes"},
	)
}

// A Live field is checked on every keystroke; its error's column is marked
// with a caret under the value, and the form cannot be submitted meanwhile.
func TestFormLiveErrorMarksColumn(t *testing.T) {
	f := typeForm(liveForm(), "ab!c")
	if f.Errors()["expr"] != "unexpected token" || f.Valid() {
		t.Fatalf("errors %v, valid %v: want the live error before any submit", f.Errors(), f.Valid())
	}
	lines := strings.Split(ansi.Strip(f.View(plainTheme, 40)), "\n")
	var value, caret string
	for i, l := range lines {
		if strings.Contains(l, "ab!c") {
			value, caret = l, lines[i+1]
		}
	}
	if strings.Index(caret, "^") != strings.Index(value, "!") {
		t.Errorf("caret not under the error:\n%s\n%s", value, caret)
	}
	f, res := f.Update(press("ctrl+s"))
	if res == Submitted {
		t.Fatal("submitted with a live error")
	}
	f, _ = f.Update(press("backspace"))
	f, _ = f.Update(press("backspace"))
	if !f.Valid() || f.Errors()["expr"] != "" {
		t.Errorf("after deleting the error: errors %v", f.Errors())
	}
	if _, res = f.Update(press("ctrl+s")); res != Submitted {
		t.Error("a valid form did not submit")
	}
}

// A value longer than the width scrolls to show its end and the cursor.
func TestFormLongValueScrolls(t *testing.T) {
	long := strings.Repeat("x", 100) + "END"
	f := typeForm(liveForm(), long)
	out := ansi.Strip(f.View(plainTheme, 30))
	if !strings.Contains(out, "END█") || !strings.Contains(out, "…") {
		t.Errorf("long value does not show its end:\n%s", out)
	}
	for _, l := range strings.Split(out, "\n") {
		if ansi.StringWidth(l) > 30 {
			t.Errorf("line wider than 30: %q", l)
		}
	}
}

func TestFormCheckValidatesFieldsTogether(t *testing.T) {
	f := NewForm("Set feature",
		Field{Key: "name", Label: "Name", Choices: []string{"TOGGLE", "URL"}},
		Field{Key: "value", Label: "Value"},
	)
	f.Check = func(v map[string]string) (string, error) {
		if v["name"] == "URL" && !strings.HasPrefix(v["value"], "https://") {
			return "value", errors.New("URL takes an https URL")
		}
		return "", nil
	}
	f, _ = f.Update(tea.KeyPressMsg{Code: tea.KeyRight}) // URL
	f, _ = f.Update(press("enter"))
	f = typeForm(f, "x")
	f, _ = f.Update(press("shift+tab")) // focus away, so the error must bring it back
	f, res := f.Update(tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl})
	if res != Editing {
		t.Fatal("submitted a value the cross-field check refuses")
	}
	if f.Focused() != "value" || !strings.Contains(ansi.Strip(f.View(plainTheme, 60)), "URL takes an https URL") {
		t.Errorf("focus %q; view:\n%s", f.Focused(), ansi.Strip(f.View(plainTheme, 60)))
	}
	f, _ = f.Update(tea.KeyPressMsg{Code: tea.KeyLeft}) // TOGGLE? focus is on value: this moves the cursor only
	f, _ = f.Update(press("shift+tab"))
	f, _ = f.Update(tea.KeyPressMsg{Code: tea.KeyLeft}) // TOGGLE
	if _, res := f.Update(tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl}); res != Submitted {
		t.Error("the check still refuses after the choice changed")
	}
}

// Text past a field's limit is never dropped silently: the form refuses to
// submit what the user did not write, and says so.
func TestFormRefusesTextCutAtTheLimit(t *testing.T) {
	f := NewForm("Notes", Field{Key: "notes", Label: "Notes", CharLimit: 8})
	f, _ = f.Update(tea.PasteMsg{Content: "false || true"})
	if got := f.Values()["notes"]; got != "false ||" {
		t.Fatalf("value %q", got)
	}
	f, res := f.Update(tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl})
	if res != Editing {
		t.Fatal("submitted a value cut at the limit")
	}
	if out := ansi.Strip(f.View(plainTheme, 80)); !strings.Contains(out, "Notes takes at most 8 characters") {
		t.Errorf("no error says the text was cut:\n%s", out)
	}
	f, _ = f.Update(press("backspace"))
	if _, res := f.Update(tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl}); res != Submitted {
		t.Error("after an edit, the value (now what the user sees) does not submit")
	}
}

// Lines says where the focused field is, its messages included, so that a
// view shorter than the form can scroll to it.
func TestFormLinesSpanTheFocusedField(t *testing.T) {
	f := typeForm(liveForm(), "a!")
	lines, first, last := f.Lines(plainTheme, 40)
	got := ansi.Strip(strings.Join(lines[first:last+1], "\n"))
	for _, want := range []string{"▸ Expression", "a!█", "^", "unexpected token"} {
		if !strings.Contains(got, want) {
			t.Errorf("focused span lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "Notes") {
		t.Errorf("focused span runs into the next field:\n%s", got)
	}
	f, _ = f.Update(press("tab"))
	lines, first, last = f.Lines(plainTheme, 40)
	if l := ansi.Strip(lines[first]); l != "▸ Notes" || last != len(lines)-1 {
		t.Errorf("Notes focused: span %d-%d of %d starts %q", first, last, len(lines), l)
	}
}

// ScrollStart keeps the focused lines in sight with two lines of context
// above, the focused field's first line winning when they do not all fit.
func TestScrollStart(t *testing.T) {
	for _, c := range []struct{ n, room, first, last, want int }{
		{10, 20, 5, 6, 0},    // everything fits
		{30, 10, 1, 2, 0},    // near the top
		{30, 10, 12, 13, 10}, // two lines of context above
		{30, 10, 12, 25, 12}, // too tall: its first line wins
		{30, 10, 12, 19, 10}, // exactly fits with context
		{30, 10, 12, 20, 11}, // fits with one line of context
		{30, 10, 28, 29, 20}, // at the bottom: no empty lines
	} {
		if got := ScrollStart(c.n, c.room, c.first, c.last); got != c.want {
			t.Errorf("ScrollStart(%d, %d, %d, %d) = %d, want %d", c.n, c.room, c.first, c.last, got, c.want)
		}
	}
}

// A blurred form (another part of the screen has the keys) marks no field
// and draws no cursor; Focus gives both back, on the same field.
func TestFormBlurHidesTheFocus(t *testing.T) {
	f := typeForm(liveForm(), "abc")
	f.Blur()
	if out := ansi.Strip(f.View(plainTheme, 40)); strings.Contains(out, "▸") || strings.Contains(out, "█") {
		t.Errorf("a blurred form shows a focus:\n%s", out)
	}
	f.Focus()
	if out := ansi.Strip(f.View(plainTheme, 40)); !strings.Contains(out, "▸ Expression") || !strings.Contains(out, "abc█") {
		t.Errorf("focus not given back:\n%s", out)
	}
}

// A paste of exactly the limit with a trailing newline is not "too long": the
// newline would be dropped anyway.
func TestFormPasteAtTheLimitWithANewline(t *testing.T) {
	f := NewForm("Notes", Field{Key: "notes", Label: "Notes", CharLimit: 5})
	f, _ = f.Update(tea.PasteMsg{Content: "abcde\n"})
	if _, res := f.Update(tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl}); res != Submitted || f.Values()["notes"] != "abcde" {
		t.Errorf("a paste of the limit and a newline: %v %q", res, f.Values()["notes"])
	}
}

// Changed says whether closing the form would lose something: typed text or a
// choice moved, not a value typed and taken back.
func TestFormChanged(t *testing.T) {
	f := policyForm()
	if f.Changed() {
		t.Fatal("a new form is changed")
	}
	f = typeForm(f, "x")
	if !f.Changed() {
		t.Error("a typed name is not a change")
	}
	f, _ = f.Update(press("backspace"))
	if f.Changed() {
		t.Error("a name typed and erased is a change")
	}
	f, _ = f.Update(tea.KeyPressMsg{Code: tea.KeyTab})
	f, _ = f.Update(tea.KeyPressMsg{Code: tea.KeyRight})
	if !f.Changed() || f.Changed("effect") {
		t.Errorf("a choice moved: Changed() = %v, Changed(\"effect\") = %v", f.Changed(), f.Changed("effect"))
	}
}

// A paste into a field picked with ←/→ is not dropped silently: the field
// says why, until its value changes.
func TestFormPasteIntoAChoiceSaysWhy(t *testing.T) {
	f := NewForm("Feature", Field{Key: "name", Label: "Name", Choices: []string{"URL", "Other"}})
	f, _ = f.Update(tea.PasteMsg{Content: "Other"})
	if got := f.Values()["name"]; got != "URL" {
		t.Errorf("the paste changed the choice to %q", got)
	}
	if out := ansi.Strip(f.View(plainTheme, 120)); !strings.Contains(out, "paste was not used") {
		t.Errorf("nothing says the paste was not used:\n%s", out)
	}
	f, _ = f.Update(tea.KeyPressMsg{Code: tea.KeyRight})
	if errs := f.Errors(); errs["name"] != "" {
		t.Errorf("picking a value left the error %q", errs["name"])
	}
}

// A field's warning shows live under it and never stops the submit: the
// value is accepted, the author is only told what it may not do.
func TestFormWarningShowsAndDoesNotBlock(t *testing.T) {
	f := NewForm("Create policy",
		Field{Key: "condition", Label: "Condition", Live: true, Warn: func(s string) string {
			if strings.Contains(s, "Name") {
				return "camelCase \x1b[31mname\x1b[0m"
			}
			return ""
		}},
	)
	f = typeForm(f, "userTagName")
	out := f.View(plainTheme, 60)
	if !strings.Contains(ansi.Strip(out), "camelCase") {
		t.Fatalf("no warning under the field while typing:\n%s", out)
	}
	if strings.Contains(out, "\x1b[31m") {
		t.Errorf("the warning's escape sequence reached the terminal:\n%q", out)
	}
	if len(f.Errors()) != 0 || !f.Valid() {
		t.Errorf("a warning made the form invalid: %v", f.Errors())
	}
	if _, res := f.Update(press("enter")); res != Submitted {
		t.Errorf("result %v, want Submitted: a warning must not block the submit", res)
	}
	f = typeForm(NewForm("x", Field{Key: "c", Label: "C", Live: true, Warn: func(string) string { return "" }}), "ok")
	if strings.Contains(ansi.Strip(f.View(plainTheme, 60)), "camelCase") {
		t.Error("warning shown for a value without one")
	}
}

// A paste past a field's limit is said at once, under the field, not only
// when the form is submitted: the person pasting sees what was not taken in
// before moving on.
func TestFormSaysACutWhenItHappens(t *testing.T) {
	f := NewForm("Notes", Field{Key: "notes", Label: "Notes", CharLimit: 5},
		Field{Key: "other", Label: "Other"})
	f, _ = f.Update(tea.PasteMsg{Content: "abcdefgh"})
	if e := f.Errors()["notes"]; !strings.Contains(e, "at most 5 characters") {
		t.Errorf("after a paste past the limit, the field says %q", e)
	}
}
