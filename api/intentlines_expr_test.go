package api

import (
	"strings"
	"testing"
)

// wideningCondition ends its first line in a `// comment` and widens itself
// on the next: CEL ends a comment only at a line break, so it matches every
// activity, though joined on one line it reads as USER-only.
const wideningCondition = "activity.resource == 'USER' // only user resources\n|| true"

// A voter reads a policy expression line by line, as the engine does: the
// code after a comment's line break is on a line of its own, never after the
// `//`, and under the expression's first line. So in a create_policy's
// condition, consensus and time, a create_mfa_policy's condition, and the
// same operations shown field by field (a shape vigil does not know).
func TestIntentLinesShowExpressionLineByLine(t *testing.T) {
	cases := map[string]Intent{
		"create_policy condition": {CreatePolicyIntentV3: &CreatePolicyParams{PolicyName: "users only", Effect: EffectAllow, Condition: wideningCondition}},
		"create_policy consensus": {CreatePolicyIntentV3: &CreatePolicyParams{PolicyName: "users only", Effect: EffectAllow, Consensus: wideningCondition}},
		"create_policy time":      {CreatePolicyIntentV3: &CreatePolicyParams{PolicyName: "users only", Effect: EffectAllow, Time: wideningCondition}},
		"create_mfa_policy":       {CreateMfaPolicyIntent: &CreateMfaPolicyParams{MfaPolicyName: "users only", UserID: "u-1", Condition: wideningCondition}},
		"unknown shape": unknownIntent(t, `{"createPolicyIntentV3":{"policyName":"users only","effect":"EFFECT_ALLOW","condition":`+
			Quote(wideningCondition)+`,"newField":"x"}}`),
	}
	first, second := Quote("activity.resource == 'USER' // only user resources"), Quote("|| true")
	for name, in := range cases {
		lines := IntentLines(in)
		at := -1
		for i, l := range lines {
			if c, w := strings.Index(l, "//"), strings.Index(l, "|| true"); c >= 0 && w > c {
				t.Errorf("%s: `|| true` shown after the comment on its line, as if commented out:\n%s", name, l)
			}
			if strings.HasSuffix(l, first) {
				at = i
			}
		}
		if at < 0 || at+1 >= len(lines) {
			t.Fatalf("%s: the expression's first line is not shown on its own:\n%s", name, strings.Join(lines, "\n"))
		}
		next := lines[at+1]
		if strings.TrimLeft(next, " ") != second || len(next)-len(second) != len(lines[at])-len(first) {
			t.Errorf("%s: the expression's second line is not right under its first:\n%s\n%s", name, lines[at], next)
		}
	}
}

// An expression on one line, and a line break in a field that holds no
// expression, read as before: quoted, on one line.
func TestIntentLinesOneLineOtherwise(t *testing.T) {
	in := Intent{CreatePolicyIntentV3: &CreatePolicyParams{PolicyName: "a\nb", Effect: EffectAllow, Condition: "true"}}
	lines := IntentLines(in)
	text := strings.Join(lines, "\n")
	if !strings.Contains(text, Quote("a\nb")) || !strings.Contains(text, Quote("true")) {
		t.Errorf("a name or one-line condition is not shown quoted on its line:\n%s", text)
	}
}
