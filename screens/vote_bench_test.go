package screens

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
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
	h := consoleAt(b, d.Client("alice"), act.ID)
	openVoteDialog(b, h)
	// Down to the end and up again, so that each press moves the window.
	loopKeySweep(b, h, "down", "up", 100)
}
