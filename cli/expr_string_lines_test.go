package cli

import (
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
)

// A triple-quoted string may hold a line break. Split there, its second
// line `// only user resources”' || true` would read as a comment hiding
// `|| true`, which is code: the condition is true for every activity. The
// break is shown as \n inside the string, on the string's line.
func TestTripleQuotedLineBreakIsNotAComment(t *testing.T) {
	cond := "activity.resource == '''USER\n// only user resources''' || true"
	c, err := policy.Compile(cond, "")
	if err != nil {
		t.Fatalf("the condition is refused (%v): no spoof to show", err)
	}
	res, err := c.Run(policy.Input{Activity: policy.ActivityFor(api.TypeDeleteAPIKeys, map[string]any{"userId": "u", "apiKeyIds": []any{"k1"}}),
		Approvers: []policy.Approver{{ID: "u1"}}})
	if err != nil || !res.Condition {
		t.Fatalf("the condition should hold for a non-USER activity (it is `|| true`): %+v %v", res, err)
	}
	// `|| true` must be on the line that starts the expression, where the
	// string that holds `// only user resources` is seen to be one.
	shown := exprText(cond)
	if l := rowOf(shown, "|| true"); !strings.Contains(l, "activity.resource ==") {
		t.Errorf("policy get shows `|| true` on a line of its own, after `//`, as if commented out, but it is code:\n%s", shown)
	}
	in := api.Intent{CreatePolicyIntentV3: &api.CreatePolicyParams{PolicyName: "users only", Effect: api.EffectAllow, Condition: cond}}
	prompt := strings.Join(api.IntentLines(in), "\n")
	if l := rowOf(prompt, "|| true"); !strings.Contains(l, "activity.resource ==") {
		t.Errorf("the vote prompt (IntentLines) shows `|| true` on a line of its own, after `//`, as if commented out, but it is code:\n%s", prompt)
	}
}
