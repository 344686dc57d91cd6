package screens

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// twoUnderOneFingerprint is bob's console on alice's pending activity a,
// the list's cursor on it; once swap is set, a proxy sends another pending
// activity of hers with a's fingerprint.
func twoUnderOneFingerprint(t *testing.T) (h *harness, a *api.Activity, swap *atomic.Bool) {
	t.Helper()
	d := servertest.StartDemo(t)
	alice := d.Client("alice")
	var acts [2]*api.Activity
	for i, name := range []string{"kept-name", "other-name"} {
		act, err := alice.CreatePolicy(context.Background(), api.CreatePolicyParams{PolicyName: name,
			Effect: api.EffectDeny, Condition: "true", Consensus: "approvers.count() >= 1"})
		if err != nil || act.Status != api.StatusConsensusNeeded {
			t.Fatalf("propose: %+v %v", act, err)
		}
		acts[i] = act
	}
	rw := strings.NewReplacer(acts[1].Fingerprint, acts[0].Fingerprint)
	swap = new(atomic.Bool)
	bob := d.ClientAt(d.Rewriting(func(_ string, _, reply []byte) []byte {
		if swap.Load() {
			return []byte(rw.Replace(string(reply)))
		}
		return reply
	}), "bob", api.WithExactStrings())
	h = newHarnessWith(t, bob, bob, theme.Options{Dark: true, NoColor: true}, 0)
	h.send(tea.WindowSizeMsg{Width: 200, Height: 300})
	h.selectActivityID(acts[0].ID)
	return h, acts[0], swap
}

// A reject dialog open when the record comes to hold a swap against its
// activity (another activity sent under its fingerprint), its own copy
// unchanged, is restated with the warning of what a rejection rejects.
func TestOpenRejectDialogWarnedOfSwap(t *testing.T) {
	h, act, swap := twoUnderOneFingerprint(t)
	h.key("x")
	if !h.voteDialogOpen() || lineOf(h.activities().asking.vote.dialog.Lines, "WARNING:") != "" {
		t.Fatalf("set-up: no reject dialog, or one warned before any swap:\n%s", h.frame())
	}
	swap.Store(true)
	h.run(h.activities().load())
	if !h.activities().intents.swapped(act.ID, act.Fingerprint) {
		t.Fatalf("set-up: the record holds no swap against %s", act.ID)
	}
	if !h.voteDialogOpen() {
		t.Fatalf("the reject dialog closed:\n%s", h.frame())
	}
	d := h.activities().asking.dialog
	warning := lineOf(d.confirm.Lines, "WARNING:")
	if !strings.Contains(warning, "you are rejecting") || !strings.Contains(warning, act.Fingerprint) {
		t.Errorf("the open reject dialog does not warn of the swap:\n%s", strings.Join(d.confirm.Lines, "\n"))
	}
	if !strings.Contains(d.confirm.Notice, "changed while open") {
		t.Errorf("the reject dialog does not say it changed while open: %q", d.confirm.Notice)
	}
}

// A reject dialog closed because another intent came under its
// fingerprint says so in terms of rejecting: the user was not approving.
func TestRejectDialogClosedOnSwapSpeaksOfRejecting(t *testing.T) {
	h, _, swap := swappingEverywhere(t, false)
	h.key("x")
	if !h.voteDialogOpen() {
		t.Fatalf("set-up: no reject dialog:\n%s", h.frame())
	}
	swap.Store(true)
	before := len(h.msgs)
	h.run(h.activities().load())
	if h.voteDialogOpen() {
		t.Fatalf("set-up: the reject dialog stays open on another intent:\n%s", h.frame())
	}
	why := toastWith(h.msgs[before:], "nothing was sent")
	if why == "" || strings.Contains(strings.ToLower(why), "approv") || !strings.Contains(why, "rejection") {
		t.Errorf("the closed reject dialog's notice does not speak of rejecting: %q", why)
	}
}
