package screens

import (
	"strings"
	"testing"
	"unicode"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
	"github.com/vigil-console/vigil/ui"
)

// A condition pasted into the policy editor keeps the control and bidi
// characters of its string literals, written as escapes the field can show:
// a deny written against a spoofed name (a bidi override after "admin") must
// not be submitted as a deny against the real name.
func TestPastedConditionKeepsStringLiteralCharacters(t *testing.T) {
	for _, tagName := range []string{"admin\u202e", "admin\x1b", "admin\u0085", "admin\u200b"} {
		pasted := "activity.params.user_tag_name == '" + tagName + "'"
		if diags := policy.CheckSource(policy.Source{Condition: pasted}); len(diags) > 0 {
			t.Fatalf("%q does not compile: %v", pasted, diags)
		}
		g := ui.NewForm("New policy",
			ui.Field{Key: "condition", Label: "Condition", CharLimit: api.MaxExpressionLength, Live: true, OneLine: policy.OneLine,
				Validate: func(s string) error { return checkExpr(policy.FieldCondition, s) }})
		g, _ = g.Update(tea.PasteMsg{Content: pasted})
		held := g.Values()["condition"]
		if msg := g.Errors()["condition"]; msg != "" {
			t.Errorf("pasted %q: the field says %q", pasted, msg)
			continue
		}
		if strings.IndexFunc(held, func(r rune) bool { return unicode.IsControl(r) || api.IsBidiControl(r) || api.IsInvisible(r) }) >= 0 {
			t.Errorf("pasted %q, the field holds %q: a character that does not show", pasted, held)
		}
		c, err := policy.Compile(held, "")
		if err != nil {
			t.Fatalf("pasted %q, the field holds %q, which does not compile: %v", pasted, held, err)
		}
		for name, want := range map[string]bool{tagName: true, "admin": false} {
			in := policy.Input{Activity: policy.ActivityFor(api.TypeCreateUserTag, &api.CreateUserTagParams{UserTagName: name, UserIDs: []string{}})}
			if got, _, err := c.Evaluate(in); err != nil || got != want {
				t.Errorf("pasted %q, the field holds %q, which on a tag named %q gives %v (%v), want %v", pasted, held, name, got, err, want)
			}
		}
	}
}
