package screens

import (
	"context"
	"reflect"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// Opening the vote dialog on an organization of 2,000 policies: the
// dialog (newPendingVote) is built in Update, and its prediction
// (voteConsequenceAt) runs every policy's condition. Real local service;
// setting up takes about 40 s.
//
//	go test ./screens -run '^$' -bench VoteDialogOpen -benchmem -benchtime 20x -count 2
func BenchmarkVoteDialogOpenAt2000Policies(b *testing.B) {
	const n = 2000
	d := servertest.StartDemo(b)
	addPolicies(b, d, n)
	operatorID := d.Info.Members[3].UserID
	act, err := d.Client("operator").CreateUserTag(context.Background(), api.CreateUserTagParams{UserTagName: "tag-1999", UserIDs: []string{operatorID}})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		b.Fatalf("operator's proposal: %v %+v", err, act)
	}
	h := consoleAt(b, d.Client("alice"), act.ID)
	c := h.root.common
	if got := len(c.Org.Eval.ordered); got < n {
		b.Fatalf("the console reads %d policies, not %d", got, n)
	}
	if then := voteConsequence(c, act, true); then == "" {
		b.Fatal("no prediction")
	}
	b.Run("prediction", func(b *testing.B) {
		for b.Loop() {
			_ = voteConsequence(c, act, true)
		}
	})
	b.Run("dialog", func(b *testing.B) {
		for b.Loop() {
			_ = newPendingVote(c, act, true)
		}
	})
	// a and the frame, the commands' I/O included; esc closes.
	b.Run("keys", func(b *testing.B) {
		for b.Loop() {
			h.key("a")
			_ = h.root.Render()
			h.key("esc")
		}
	})
	// The same, timing only Update (the event loop) and the frame: the
	// commands the key starts run with the timer stopped.
	b.Run("update", func(b *testing.B) {
		for b.Loop() {
			updateOnly(b, h, keyPress("a"))
			_ = h.root.Render()
			b.StopTimer()
			if !h.voteDialogOpen() {
				b.Fatalf("no vote dialog:\n%s", h.frame())
			}
			h.key("esc")
			b.StartTimer()
		}
	})
}

// updateOnly delivers msg to the root and every message its commands send,
// as harness.send does, with the timer running only in Update.
func updateOnly(b *testing.B, h *harness, msg tea.Msg) {
	_, cmd := h.root.Update(msg)
	b.StopTimer()
	msgs, err := collectUntil(cmd, h.commandWait())
	if err != nil {
		b.Fatal(err)
	}
	b.StartTimer()
	for _, m := range msgs {
		if _, quit := m.(tea.QuitMsg); quit || reflect.TypeOf(m).PkgPath() == "charm.land/bubbletea/v2" {
			continue
		}
		updateOnly(b, h, m)
	}
}
