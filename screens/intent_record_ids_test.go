package screens

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// movingFingerprint is bob's console on a pending create_policy whose
// fingerprint, once move is set, a proxy replaces with another in every
// reply (the intent unchanged); the list's cursor is on it.
func movingFingerprint(t *testing.T) (h *harness, act *api.Activity, moved string, move *atomic.Bool) {
	t.Helper()
	d := servertest.StartDemo(t)
	act, err := d.Client("alice").CreatePolicy(context.Background(), api.CreatePolicyParams{PolicyName: "moved-name",
		Effect: api.EffectDeny, Condition: "true", Consensus: "approvers.count() >= 1"})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("propose: %+v %v", act, err)
	}
	fp := strings.TrimPrefix(act.Fingerprint, "sha256:")
	moved = strings.Replace(act.Fingerprint, fp, strings.Repeat("0", len(fp)), 1)
	rw := strings.NewReplacer(fp, strings.Repeat("0", len(fp)))
	move = new(atomic.Bool)
	bob := d.ClientAt(d.Rewriting(func(_ string, _, reply []byte) []byte {
		if move.Load() {
			return []byte(rw.Replace(string(reply)))
		}
		return reply
	}), "bob", api.WithExactStrings())
	h = newHarnessWith(t, bob, bob, theme.Options{Dark: true, NoColor: true}, 0)
	h.send(tea.WindowSizeMsg{Width: 200, Height: 300})
	h.selectActivityID(act.ID)
	if sel := h.activities().selected(); sel == nil || sel.ID != act.ID {
		t.Fatalf("set-up: the list's cursor is not on %s", act.ID)
	}
	return h, act, moved, move
}

// An activity's fingerprint is the hash of its submission: the same
// activity id under a second fingerprint is a swap. Approving it is
// refused, its row is marked, the detail says what changed, and a
// rejection stays allowed, its dialog saying what it rejects.
func TestSwapByActivityIDUnderSecondFingerprint(t *testing.T) {
	h, act, moved, move := movingFingerprint(t)
	move.Store(true)
	h.key("r")
	if sel := h.activities().selected(); sel == nil || sel.Fingerprint != moved {
		t.Fatalf("set-up: the row did not take the second fingerprint: %+v", sel)
	}
	if row := rowWith(h.frame(), "moved-name"); !strings.Contains(row, movedRowMark) {
		t.Errorf("the row of %s, seen with fingerprint %s then %s, is not marked: %q", act.ID, act.Fingerprint, moved, row)
	}
	before := len(h.msgs)
	h.key("a")
	if h.voteDialogOpen() {
		t.Fatalf("%s came with fingerprint %s, then %s, yet `a` opens an approve dialog:\n%s", act.ID, act.Fingerprint, moved,
			strings.Join(h.activities().asking.vote.dialog.Lines, "\n"))
	}
	if !toasted(h.msgs[before:], "you cannot approve this activity: the service sent this activity under more than one fingerprint") {
		t.Errorf("a refused approval does not say why: %v", h.msgs[before:])
	}
	h.key("enter")
	f := h.frame()
	for _, want := range []string{"the service sent this activity under more than one fingerprint", act.Fingerprint, moved, "never changes"} {
		if !strings.Contains(f, want) {
			t.Errorf("the detail does not warn with %q:\n%s", want, f)
		}
	}
	h.key("x")
	if !h.voteDialogOpen() {
		t.Fatalf("no reject dialog on the moved activity:\n%s", h.frame())
	}
	d := h.activities().asking.vote.dialog
	if len(d.Lines) == 0 || !d.Warn[0] || !strings.Contains(d.Lines[0], "you are rejecting") || !strings.Contains(d.Lines[0], moved) {
		t.Errorf("the reject dialog does not start with what the rejection rejects:\n%s", strings.Join(d.Lines, "\n"))
	}
}

// The reject dialog on an activity whose fingerprint came with two
// intents: the user is rejecting, so it says what a rejection rejects and
// that the intent shown may not be the one the fingerprint stands for,
// not to refrain from approving.
func TestSwapRejectDialogSaysWhatIsRejected(t *testing.T) {
	h, act, swap := swappingEverywhere(t, false)
	swap.Store(true)
	h.key("r")
	h.key("x")
	if !h.voteDialogOpen() {
		t.Fatalf("no reject dialog on the swapped activity:\n%s", h.frame())
	}
	warning := h.activities().asking.vote.dialog.Lines[0]
	for _, want := range []string{swapWarning, "you are rejecting", act.Fingerprint, "may not be the one", "rejecting is allowed"} {
		if !strings.Contains(warning, want) {
			t.Errorf("the reject dialog's warning does not say %q: %q", want, warning)
		}
	}
	if strings.Contains(strings.ToLower(warning), "approv") {
		t.Errorf("the reject dialog's warning talks of approving, while the user is rejecting: %q", warning)
	}
}

// The record of fingerprints per id is bounded as the record of intents
// is, and a service sending thousands of other ids does not wash out an
// id seen under two fingerprints.
func TestFingerprintsSeenBoundedKeepsMoves(t *testing.T) {
	var s intentsSeen
	first := api.Activity{ID: "act-1", Fingerprint: "fp-1", Intent: rawIntent(`{"v":1}`)}
	second := first
	second.Fingerprint = "fp-2"
	s.note(&first)
	if s.swapped(first.ID, first.Fingerprint) {
		t.Fatalf("set-up: one id with one fingerprint is a swap")
	}
	if !s.note(&second) || !s.swapped(second.ID, second.Fingerprint) || !s.swapped(first.ID, first.Fingerprint) {
		t.Fatalf("%s came with %s, then %s, yet is not a swap", first.ID, first.Fingerprint, second.Fingerprint)
	}
	for i := range 3 * maxIntentsSeen {
		s.note(&api.Activity{ID: fmt.Sprint("act-rotated-", i), Fingerprint: fmt.Sprint("fp-rotated-", i), Intent: first.Intent})
		if len(s.byID) > maxIntentsSeen {
			t.Fatalf("the record holds %d ids, over its bound of %d", len(s.byID), maxIntentsSeen)
		}
	}
	if !s.swapped(second.ID, second.Fingerprint) {
		t.Errorf("after %d other ids, the move of %s is forgotten", 3*maxIntentsSeen, first.ID)
	}
}
