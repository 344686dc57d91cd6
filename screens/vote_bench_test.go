package screens

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// One ↓ in the vote dialog of the largest create_policy the demo service
// takes (condition and consensus at the maximum expression length, notes at
// the maximum), then the whole frame, at 120×40. Target: under 16 ms.
//
//	go test ./screens -run '^$' -bench BenchmarkVoteDialogKeystrokeMaxPolicy -benchmem -count 3
func BenchmarkVoteDialogKeystrokeMaxPolicy(b *testing.B) {
	d := servertest.StartDemo(b)
	bob := d.Info.Members[1].UserID
	term := "approvers.any(user, user.id == '" + bob + "') || "
	consensus := strings.Repeat(term, (api.MaxExpressionLength-40)/len(term)) + "approvers.count() >= 2"
	cond := strings.Repeat("activity.type == 'ACTIVITY_TYPE_CREATE_INVITATIONS' || ", (api.MaxExpressionLength-40)/56) + "false"
	act, err := d.Client("carol").CreatePolicy(context.Background(), api.CreatePolicyParams{PolicyName: "Big",
		Effect: api.EffectAllow, Condition: cond, Consensus: consensus, Notes: strings.Repeat("n", api.MaxNotesLength)})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		b.Fatalf("propose: %+v %v", act, err)
	}
	alice := d.Client("alice")
	h := newHarnessWith(b, alice, alice, theme.Options{Dark: true, NoColor: true}, 0)
	h.send(tea.WindowSizeMsg{Width: 120, Height: 40})
	h.selectActivityID(act.ID)
	h.key("a")
	if !h.voteDialogOpen() {
		b.Fatalf("no vote dialog:\n%s", h.frame())
	}
	i := 0
	for b.Loop() {
		// Down to the end and up again, so that each press moves the window.
		k := "down"
		if i/100%2 == 1 {
			k = "up"
		}
		i++
		h.key(k)
		_ = h.root.Render()
	}
}
