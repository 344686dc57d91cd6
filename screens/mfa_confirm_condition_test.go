package screens

import (
	"strings"
	"testing"
)

// The create confirm restates the condition whole (console.md): one longer
// than a line wraps, its end (here the part that widens the policy to
// another kind of activity) is not cut.
func TestMfaConfirmShowsWholeCondition(t *testing.T) {
	h, fake := mfaHarness(t, false)
	h.key("n")
	h.typeText("deletes")
	h.key("tab") // condition
	for range 4 {
		h.key("backspace")
	}
	cond := "activity.action == 'DELETE' || activity.resource == 'POLICY'"
	h.typeText(cond)
	h.send(ctrlS)
	out := h.frame()
	if !strings.Contains(out, "Create MFA policy") {
		t.Fatalf("no confirm:\n%s", out)
	}
	var dialog []string
	for _, l := range strings.Split(out, "\n") {
		if i := strings.Index(l, "│"); i >= 0 {
			dialog = append(dialog, strings.Trim(l[i:], "│ "))
		}
	}
	if !strings.Contains(strings.Join(strings.Fields(strings.Join(dialog, " ")), " "), cond) {
		t.Errorf("the confirm does not restate the condition %q:\n%s", cond, out)
	}
	h.key("y")
	if len(fake.mfaCreates) == 1 && fake.mfaCreates[0].Condition != cond {
		t.Fatalf("sent condition %q", fake.mfaCreates[0].Condition)
	}
}
