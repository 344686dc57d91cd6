package screens

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
)

// Two create_policy activities whose conditions differ only by a space
// (a DENY on wallet account "…AB" and one on "…A B", which matches no
// account) draw the very same vote dialog at 60×18: the wrapper drops the
// space where it breaks the line, and breaks a word longer than the line
// at the same place without a mark.
func TestVoteDialogShowsASpaceAtALineBreak(t *testing.T) {
	frameFor := func(cond string) string {
		act := pendingActivity("act-pol", "bob", time.Minute,
			api.Intent{CreatePolicyIntentV3: &api.CreatePolicyParams{PolicyName: "Never delete the treasury account",
				Effect: "EFFECT_DENY", Condition: cond, Consensus: ""}}, api.TypeCreatePolicyV3)
		h := newHarness(t, &fakeClient{activities: []api.Activity{act}}, false, 0)
		h.send(tea.WindowSizeMsg{Width: 60, Height: 18})
		h.key("a")
		if !h.voteDialogOpen() {
			t.Fatal("no vote dialog")
		}
		body, _ := dialogBody(t, h.frame(), "Approve this activity?")
		return strings.Join(body, "\n")
	}
	a := strings.Repeat("A", 64)
	real := frameFor("wallet.id == '" + a + "B'")
	inert := frameFor("wallet.id == '" + a + " B'")
	if real == inert {
		t.Fatalf("conditions that differ by a space show the same dialog:\n%s", real)
	}
}
