package screens

import (
	"crypto/sha256"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui"
)

// toastWith is the text of the first toast among msgs that holds text, or "".
func toastWith(msgs []tea.Msg, text string) string {
	for _, m := range msgs {
		if t, ok := m.(ui.ToastMsg); ok && strings.Contains(t.Text, text) {
			return t.Text
		}
	}
	return ""
}

// An activity seen under F1, then F2, then F1 again (a proxy rewriting
// some replies only, or swapping back): the refusal, the detail and the
// reject dialog name the fingerprint the copy shown does not carry, F2,
// and name each fingerprint once.
func TestMovedBackNamesTheOtherFingerprint(t *testing.T) {
	h, act, moved, move := movingFingerprint(t)
	move.Store(true)
	h.key("r")
	if sel := h.activities().selected(); sel == nil || sel.Fingerprint != moved {
		t.Fatalf("set-up: the row did not take the second fingerprint: %+v", sel)
	}
	move.Store(false)
	h.key("r")
	if sel := h.activities().selected(); sel == nil || sel.Fingerprint != act.Fingerprint {
		t.Fatalf("set-up: the row did not take the first fingerprint back: %+v", sel)
	}
	before := len(h.msgs)
	h.key("a")
	if h.voteDialogOpen() {
		t.Fatalf("approve dialog opened on a moved activity")
	}
	refusal := toastWith(h.msgs[before:], "you cannot approve this activity")
	if strings.Count(refusal, act.Fingerprint) != 1 || strings.Count(refusal, moved) != 1 {
		t.Errorf("the refusal does not name this copy's fingerprint %s and the other one, %s, once each: %q", act.Fingerprint, moved, refusal)
	}
	h.key("enter")
	if f := h.frame(); !strings.Contains(f, moved) {
		t.Errorf("the detail of the copy with %s never names the other fingerprint %s:\n%s", act.Fingerprint, moved, f)
	}
	h.key("x")
	if !h.voteDialogOpen() {
		t.Fatalf("no reject dialog on the moved activity:\n%s", h.frame())
	}
	warning := lineOf(h.activities().asking.vote.dialog.Lines, "WARNING:")
	if strings.Count(warning, moved) != 1 || !strings.Contains(warning, "this copy has fingerprint "+act.Fingerprint) {
		t.Errorf("the reject dialog's warning does not say this copy has %s and the service also sent %s: %q", act.Fingerprint, moved, warning)
	}
}

// A fingerprint kept cut is shown cut, with its length, and where it
// differs from the copy's is said when the two start alike: an id moved
// from a long fingerprint to its own first bytes, or to another of the same
// length and first bytes, does not read as unchanged.
func TestMovedCutFingerprintShownCut(t *testing.T) {
	p := "sha256:" + strings.Repeat("ab", (maxFingerprintShown-7)/2) + "c"
	if len(p) != maxFingerprintShown {
		t.Fatalf("set-up: %d", len(p))
	}
	for _, c := range []struct{ first, now, says string }{
		{p + "deadbeef", p, fmt.Sprint(len(p+"deadbeef"), " bytes long")},
		{p + "deadbeef", p + "feedface", fmt.Sprintf("%x", sha256.Sum256([]byte(p+"deadbeef")))[:16]},
		{p, p + "deadbeef", fmt.Sprint(len(p), " bytes long")},
	} {
		var s intentsSeen
		first := api.Activity{ID: "act-1", Fingerprint: c.first, Intent: rawIntent(`{"v":1}`)}
		second := first
		second.Fingerprint = c.now
		s.note(&first)
		s.note(&second)
		w := s.seenSwap(second.ID, second.Fingerprint)
		if !w.moved {
			t.Fatalf("set-up: not moved")
		}
		txt := movedText(w, &second)
		also := txt[strings.Index(txt, "also sent it with ")+len("also sent it with "):]
		if len(c.first) > maxFingerprintShown && !strings.HasPrefix(also, p+"…") {
			t.Errorf("the first fingerprint, %d bytes, is not shown marked as cut: %s", len(c.first), txt)
		}
		if !strings.Contains(txt, "this copy has fingerprint "+c.now+";") || !strings.Contains(also, c.says) {
			t.Errorf("moved from %q to %q, the text does not say where they differ (%q): %s", c.first, c.now, c.says, txt)
		}
	}
}
