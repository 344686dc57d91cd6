package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui/theme"
)

// maxPolicyIntent is the vote dialog of the largest create_policy the
// service takes: condition, consensus and time at the maximum expression
// length, notes at the maximum, the way screens/voting.go builds it (a type
// line, then the intent, a warned line among them).
func maxPolicyIntent() Confirm {
	term := "approvers.any(user, user.id == 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee') || "
	expr := strings.Repeat(term, (api.MaxExpressionLength-40)/len(term)) + "approvers.count() >= 2"
	in := api.Intent{CreatePolicyIntentV3: &api.CreatePolicyParams{PolicyName: "Big", Effect: api.EffectAllow,
		Condition: expr, Consensus: expr, Time: expr, Notes: strings.Repeat("n", api.MaxNotesLength)}}
	lines := append([]string{"type:     ACTIVITY_TYPE_CREATE_POLICY_V3"}, api.IntentLines(in)...)
	c := NewConfirm("Approve this activity?", "approve", lines...)
	c.Warn = map[int]bool{1: true}
	return c
}

// One ↓ in the vote dialog of the largest create_policy, then what a frame
// asks of the dialog: the help (Scrollable), the unread count, the view.
//
//	go test ./ui -run '^$' -bench BenchmarkConfirmKeystrokeMaxIntent -benchmem -count 3
func BenchmarkConfirmKeystrokeMaxIntent(b *testing.B) {
	c := maxPolicyIntent()
	th := theme.New(theme.Options{NoColor: true})
	down, up := tea.KeyPressMsg{Code: tea.KeyDown}, tea.KeyPressMsg{Code: tea.KeyUp}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		// Down to the end, then up again, so every press moves the window.
		key := down
		if i/100%2 == 1 {
			key = up
		}
		i++
		c.Scroll(key, 120, 40)
		_ = c.Scrollable(120, 40)
		_, _ = c.Unread(120, 40)
		_ = c.View(th, 120, 40)
	}
}
