package screens

import (
	"strings"
	"testing"

	"github.com/vigil-console/vigil/policy"
	"github.com/vigil-console/vigil/server/servertest"
)

// A deny on a camelCase parameter compiles and denies on the local service,
// but the real service exposes parameters in snake_case only: there reading
// it is an evaluation error and the deny never denies. The editor says so
// under the condition while it is typed and again in the confirm, before the
// policy goes to a vote, and still lets it be submitted.
func TestEndToEndPolicyEditorWarnsOfParamsTheRealServiceDoesNotExpose(t *testing.T) {
	d := servertest.StartDemo(t)
	h := memberConsole(t, d.Client("alice"))
	h.gotoScreen("Policies")
	p := h.policies()
	h.key("n")
	if p.editor == nil {
		t.Fatal("n did not open the editor")
	}
	const condition = "activity.params.userTagName == 'ops'"
	ws := policy.Warnings(policy.Source{Condition: condition})
	if len(ws) == 0 || !strings.Contains(ws[0].Message, "user_tag_name") {
		t.Fatalf("policy.Warnings does not name user_tag_name for %s: %v", condition, ws)
	}
	h.typeText("No ops tag changes")
	h.key("tab")
	h.key("right") // EFFECT_DENY
	h.key("tab")
	h.typeText(condition)
	flat := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	if out := flat(h.frame()); !strings.Contains(out, "warning:") || !strings.Contains(out, "user_tag_name") ||
		!strings.Contains(out, "never denies") {
		t.Errorf("no warning under the condition while typing it:\n%s", h.frame())
	}
	if errs := p.editor.form.Errors(); errs["condition"] != "" {
		t.Errorf("the warning was shown as the condition's error: %q", errs["condition"])
	}
	h.key("ctrl+s")
	out := flat(h.frame())
	if !strings.Contains(out, "Create policy") {
		t.Fatalf("ctrl+s asked for no confirm (a warning must not block the submit):\n%s", h.frame())
	}
	if !strings.Contains(out, "⚠ warning: column") || !strings.Contains(out, "user_tag_name") {
		t.Errorf("the confirm before the vote does not carry the warning:\n%s", h.frame())
	}
}
