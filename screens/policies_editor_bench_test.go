package screens

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
)

// maxCondition is a condition of terms joined by || up to the field's limit,
// ending in tail.
func maxCondition(tail string) string {
	const term = "activity.type == 'ACTIVITY_TYPE_CREATE_INVITATIONS' || "
	n := (api.MaxExpressionLength - len(tail)) / len(term)
	return strings.Repeat(term, n) + tail
}

// One keystroke in a condition at the field's limit: the key, and the checks
// it starts (compile and warnings) run to the end, wherever they run; with
// "update-only", the key alone, as Update handles it (the checks run in a
// command, on another goroutine).
func BenchmarkPolicyEditorKeystrokeMaxCondition(b *testing.B) {
	for _, tc := range []struct {
		name, cond string
		updateOnly bool
	}{
		{"valid", maxCondition("false"), false},
		{"mid-term", maxCondition("false ||"), false},
		{"mid-term-update-only", maxCondition("false ||"), true},
	} {
		b.Run(tc.name, func(b *testing.B) {
			h := newHarness(b, &fakeClient{activities: sampleActivities()}, false, 0)
			p := h.toPolicies()
			h.key("n")
			h.key("tab")
			h.key("tab")
			h.send(tea.PasteMsg{Content: tc.cond})
			if got := p.editor.form.Values()["condition"]; got != tc.cond {
				b.Fatalf("the condition holds %d characters, want %d", len(got), len(tc.cond))
			}
			keys := []tea.KeyPressMsg{keyPress(" "), keyPress("backspace")}
			i := 0
			for b.Loop() {
				cmd := p.editorUpdate(keys[i%2])
				if !tc.updateOnly {
					h.run(cmd)
				}
				i++
			}
		})
	}
}
