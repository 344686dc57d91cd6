package screens

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui"
	"github.com/vigil-console/vigil/ui/theme"
)

// A hostile service tells the background poll of Pending one intent (DENY)
// and the All view another (ALLOW) under the same fingerprint: the poll's
// copy is noted like any other, so the swap is seen and approve refused, as
// it would be had the DENY copy come through the first page of Pending.
func TestPolledCopyCountsForAnIntentSwap(t *testing.T) {
	d := servertest.StartDemo(t)
	rewrite := strings.NewReplacer("swap-orig-name", "swap-EVIL-name", "EFFECT_DENY", "EFFECT_ALLOW")
	bob := d.ClientAt(d.Rewriting(func(op string, req, reply []byte) []byte {
		if strings.Contains(string(req), api.StatusConsensusNeeded) {
			return reply // the background poll of Pending: the benign intent
		}
		return []byte(rewrite.Replace(string(reply)))
	}), "bob", api.WithExactStrings())
	h := newHarnessWith(t, bob, bob, theme.Options{Dark: true, NoColor: true}, 5*time.Second)
	h.send(tea.WindowSizeMsg{Width: 160, Height: 60})
	h.key("v")
	tickOnce(h) // baseline
	act, err := d.Client("alice").CreatePolicy(context.Background(), api.CreatePolicyParams{PolicyName: "swap-orig-name",
		Effect: api.EffectDeny, Condition: "true", Consensus: "approvers.count() >= 1"})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("propose: %+v %v", act, err)
	}
	tickOnce(h)
	var told string
	for _, m := range h.msgs {
		if tm, ok := m.(ui.ToastMsg); ok && strings.Contains(tm.Text, "waits for your vote") {
			told = tm.Text
		}
	}
	if !strings.Contains(h.frame(), "swap-EVIL-name") {
		t.Fatalf("set-up: All does not show the swapped intent:\n%s", h.frame())
	}
	a := h.activities()
	if !a.intents.swapped(act.ID, act.Fingerprint) {
		t.Errorf("the poll brought %s with a DENY intent (told: %q), the list with ALLOW under the same fingerprint: no swap seen", act.ID, told)
	}
	for range 5 {
		h.key("k")
	}
	if sel := a.selected(); sel == nil || sel.ID != act.ID {
		t.Fatalf("set-up: cursor not on %s", act.ID)
	}
	h.key("a")
	if h.voteDialogOpen() {
		t.Errorf("approve dialog opens on the ALLOW intent, after the notice said DENY:\n%s", strings.Join(a.asking.vote.dialog.Lines, "\n"))
	}
}

// A poll sent before alice's vote and answered after it (a slow service)
// does not announce the activity as waiting for her vote, nor ring: she has
// just voted on it.
func TestPollAnsweredAfterAVoteDoesNotRingForIt(t *testing.T) {
	d, h := arrivalsHarness(t, 4)
	h.send(tea.WindowSizeMsg{Width: 160, Height: 60})
	h.key("v")
	tickOnce(h) // baseline
	bobSubmits(t, d, "slow poll")
	a := h.activities()
	poll := a.pollPendingTop() // the tick's poll, sent now...
	if poll == nil {
		t.Fatal("set-up: no poll")
	}
	answer := poll() // ...and answered by the service now, delivered late
	h.key("r")       // All shows bob's activity
	for range 5 {
		h.key("k")
	}
	sel := a.selected()
	if sel == nil || !strings.Contains(intentWhat(a.c, sel), "slow poll") {
		t.Fatalf("set-up: cursor not on bob's activity: %+v", sel)
	}
	h.key("a")
	h.key("y")
	if got, err := d.Client("alice").GetActivity(context.Background(), sel.ID); err != nil || got.CanApprove {
		t.Fatalf("set-up: alice's vote not recorded: %v", err)
	}
	h.msgs = nil
	h.send(answer)
	if n, b := waitNotices(h); n+b != 0 {
		t.Errorf("after alice approved it, the late poll told %d notices, %d bells that it waits for her vote", n, b)
	}
}
