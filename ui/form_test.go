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
