package ui

import (
	"errors"
	"testing"
)

// A value that fails its check shows its error alone: its warnings are not
// worked out (on a long policy condition they cost as much as the check).
func TestFormWarnsOnlyOfValuesThatPass(t *testing.T) {
	warned := map[string]int{}
	f := NewForm("t", Field{Key: "expr", Label: "Expr", Live: true,
		Validate: func(s string) error {
			if s == "bad" {
				return errors.New("does not compile")
			}
			return nil
		},
		Warn: func(s string) string { warned[s]++; return "careful: " + s }})
	f = typeForm(f, "bad")
	if warned["bad"] > 0 {
		t.Errorf("the warnings ran %d times on a value that fails", warned["bad"])
	}
	if got := f.Errors()["expr"]; got != "does not compile" {
		t.Errorf("error %q", got)
	}
	_ = typeForm(f, "x")
	if warned["badx"] == 0 {
		t.Error("no warnings worked out for a value that passes")
	}
}
