package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vigil-console/vigil/ui/theme"
)

func TestHiddenFieldIsNeverDrawn(t *testing.T) {
	const secret = "hunter2-very-secret"
	f := NewForm("Secret", Field{Key: "secret", Label: "Secret", Required: true, Hidden: true})
	th := theme.New(theme.Options{Dark: true, NoColor: true})
	if v := ansi.Strip(f.View(th, 80)); !strings.Contains(v, "nothing typed yet") {
		t.Errorf("an empty hidden field should say so:\n%s", v)
	}
	for i := range secret {
		f = typeForm(f, secret[i:i+1])
		if v := ansi.Strip(f.View(th, 80)); strings.Contains(v, secret[:i+1]) && i > 0 {
			t.Fatalf("the hidden value is drawn after %d characters:\n%s", i+1, v)
		}
	}
	if v := ansi.Strip(f.View(th, 80)); !strings.Contains(v, "typed, not shown") {
		t.Errorf("a typed hidden field should say so:\n%s", v)
	}
	if f.Values()["secret"] != secret {
		t.Errorf("value %q", f.Values()["secret"])
	}
	f.Clear("secret")
	if f.Values()["secret"] != "" {
		t.Errorf("Clear left %q", f.Values()["secret"])
	}
}

func TestMultiFieldTicksSeveralChoices(t *testing.T) {
	f := NewForm("Tag", Field{Key: "users", Label: "Users", Required: true, Multi: true,
		Choices: []string{"u-1", "u-2", "u-3"}, ChoiceLabels: []string{"alice", "bob", "carol"}})
	if _, res := f.Update(tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl}); res == Submitted {
		t.Fatal("nothing ticked: a required multi field must refuse")
	}
	space := tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	right := tea.KeyPressMsg{Code: tea.KeyRight}
	f, _ = f.Update(space) // alice
	f, _ = f.Update(right)
	f, _ = f.Update(right)
	f, _ = f.Update(space) // carol
	f, _ = f.Update(space) // carol off
	f, _ = f.Update(space) // carol on
	if got := f.Values()["users"]; got != "u-1,u-3" {
		t.Errorf("picked %q, want u-1,u-3", got)
	}
	th := theme.New(theme.Options{Dark: true, NoColor: true})
	if v := ansi.Strip(f.View(th, 80)); !strings.Contains(v, "[x] carol") || !strings.Contains(v, "picked (2): alice, carol") {
		t.Errorf("view:\n%s", v)
	}
	f, _ = f.Update(right)
	f.SetError("users", "pick the on-call members")
	if v := ansi.Strip(f.View(th, 80)); !strings.Contains(v, "[x] alice") || !strings.Contains(v, "pick the on-call members") {
		t.Errorf("view:\n%s", v)
	}
}

// An empty field's example must not read as a value typed: a form showing
// "erin@example.com: access=api" under Per invitee, with nothing there, told
// the member an override was set. Without colour (NO_COLOR draws muted text
// as any other) only the words can tell them apart.
func TestPlaceholderNeverReadsAsAValue(t *testing.T) {
	const example = "erin@example.com: access=api, tags=ops"
	th := theme.New(theme.Options{Dark: true, NoColor: true})
	form := func(value string) string {
		return NewForm("Invite",
			Field{Key: "invitees", Label: "Invitees", Required: true},
			Field{Key: "per", Label: "Per invitee", Placeholder: example, Value: value}).View(th, 80)
	}
	empty, typed := form(""), form(example)
	if empty == typed {
		t.Fatalf("an empty field with an example draws as the example typed:\n%s", empty)
	}
	if !strings.Contains(ansi.Strip(empty), "e.g. "+example) {
		t.Errorf("the example is not marked as one (e.g.):\n%s", ansi.Strip(empty))
	}
	if strings.Contains(ansi.Strip(typed), "e.g.") {
		t.Errorf("a typed value is drawn as an example:\n%s", ansi.Strip(typed))
	}
}
