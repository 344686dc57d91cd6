package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

func typed(r rune) tea.KeyPressMsg { return tea.KeyPressMsg{Code: r, Text: string(r)} }

// A letter typed on a field of choices is not dropped unseen: it moves to the
// next choice starting with it, or the field says which keys it takes.
func TestLetterOnAChoiceFieldJumpsOrSaysWhichKeysWork(t *testing.T) {
	f := NewForm("Set", Field{Key: "refresh", Label: "Refresh", Choices: []string{"no", "yes"}})
	f, _ = f.Update(typed('Y'))
	if got := f.Values()["refresh"]; got != "yes" {
		t.Errorf("Y on no/yes chose %q, want yes", got)
	}
	f, _ = f.Update(typed('z'))
	if got := f.Values()["refresh"]; got != "yes" {
		t.Errorf("z, which no choice starts with, changed the choice to %q", got)
	}
	if msg := f.Errors()["refresh"]; !strings.Contains(msg, `"z" was not used`) || !strings.Contains(msg, "←/→") {
		t.Errorf("after z the field says %q, want that z was not used and that ←/→ choose", msg)
	}
	f, _ = f.Update(tea.KeyPressMsg{Code: tea.KeyLeft})
	if msg := f.Errors()["refresh"]; msg != "" {
		t.Errorf("a choice made with ← leaves the message %q", msg)
	}
}

// On a Filter field / or a letter asks the owner for a filter, starting with
// the letter; SetPicked writes the choice back.
func TestFilterFieldAsksForAPicker(t *testing.T) {
	f := NewForm("Tag", Field{Key: "userIds", Label: "Users", Multi: true, Filter: true,
		Choices: []string{"u-1", "u-2", "u-3"}, ChoiceLabels: []string{"ann (u-1)", "bob (u-2)", "cy (u-3)"}})
	f, res := f.Update(typed('b'))
	if key, query := f.PickRequest(); res != Picking || key != "userIds" || query != "b" {
		t.Fatalf("b on the field: %v %q %q, want Picking for userIds starting with b", res, key, query)
	}
	f, res = f.Update(typed('/'))
	if _, query := f.PickRequest(); res != Picking || query != "" {
		t.Errorf("/ on the field: %v %q, want Picking with an empty filter", res, query)
	}
	f.SetPicked("userIds", []string{"u-3", "u-2", "nobody"})
	if got := f.Values()["userIds"]; got != "u-2,u-3" {
		t.Errorf("SetPicked(u-3, u-2, nobody): %q, want u-2,u-3", got)
	}
	if _, _, _, ticked := f.PickChoices("userIds"); strings.Join(ticked, ",") != "u-2,u-3" {
		t.Errorf("PickChoices ticked %v", ticked)
	}
}
