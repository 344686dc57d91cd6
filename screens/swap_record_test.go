package screens

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// A vote signs a fingerprint, not an activity id. A proxy gives activity B
// (benign) the fingerprint of activity A (evil). The console's list holds
// both: one fingerprint with two intents. The record is keyed on (id,
// fingerprint), so nothing is flagged, `a` on B opens an approve dialog on
// the benign intent, and confirming it approves A on the real local service.
func TestRecordSwapAcrossActivityIDs(t *testing.T) {
	d := servertest.StartDemo(t)
	ctx := context.Background()
	alice := d.Client("alice")
	evil, err := alice.CreatePolicy(ctx, api.CreatePolicyParams{PolicyName: "swap-EVIL-allow-all",
		Effect: api.EffectAllow, Condition: "true", Consensus: "approvers.count() >= 1"})
	if err != nil || evil.Status != api.StatusConsensusNeeded {
		t.Fatalf("propose evil: %+v %v", evil, err)
	}
	benign, err := alice.CreatePolicy(ctx, api.CreatePolicyParams{PolicyName: "swap-benign-deny",
		Effect: api.EffectDeny, Condition: "true", Consensus: "approvers.count() >= 1"})
	if err != nil || benign.Status != api.StatusConsensusNeeded {
		t.Fatalf("propose benign: %+v %v", benign, err)
	}
	// Every reply: B's fingerprint reads as A's.
	rw := strings.NewReplacer(benign.Fingerprint, evil.Fingerprint)
	bob := d.ClientAt(d.Rewriting(func(op string, _, reply []byte) []byte {
		return []byte(rw.Replace(string(reply)))
	}), "bob", api.WithExactStrings())
	h := newHarnessWith(t, bob, bob, theme.Options{Dark: true, NoColor: true}, 0)
	h.send(tea.WindowSizeMsg{Width: 200, Height: 300})
	f := h.frame()
	if !strings.Contains(f, "swap-EVIL-allow-all") || !strings.Contains(f, "swap-benign-deny") {
		t.Fatalf("set-up: the list does not hold both activities:\n%s", f)
	}
	h.selectActivityID(benign.ID)
	if sel := h.activities().selected(); sel == nil || sel.Fingerprint != evil.Fingerprint {
		t.Fatalf("set-up: B does not carry A's fingerprint: %+v", sel)
	}
	if n := strings.Count(h.frame(), swapRowMark); n != 2 {
		t.Errorf("both rows carrying fingerprint %s should be marked, %d are:\n%s", evil.Fingerprint, n, h.frame())
	}
	h.key("a")
	if !h.voteDialogOpen() {
		return // refused: fixed
	}
	t.Errorf("the list shows fingerprint %s with two intents (A: EVIL allow, B: benign deny), yet `a` on B opens an approve dialog:\n%s",
		evil.Fingerprint, strings.Join(h.activities().asking.vote.dialog.Lines, "\n"))
	h.key("y")
	got, err := d.Client("alice").GetActivity(ctx, evil.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range got.Votes {
		if v.User.UserName == "bob" {
			t.Errorf("and confirming it counted bob's approval on the EVIL activity A (now %s)", got.Status)
		}
	}
}

// A \u escape of a lone surrogate is another byte string (the fingerprint,
// over the body, tells them apart), yet the canonical form decodes every
// one of them to U+FFFD: two intents hashed as one. The docs promise the
// raw-bytes fallback for what decoding would replace (non-UTF-8 bytes).
func TestRecordLoneSurrogateEscapesCollide(t *testing.T) {
	for _, pair := range [][2]string{
		{`{"name":"\ud800"}`, `{"name":"\udfff"}`},
		{`{"name":"\ud800"}`, `{"name":"\ufffd"}`},
	} {
		if intentSum(rawIntent(pair[0])) == intentSum(rawIntent(pair[1])) {
			t.Errorf("%s and %s are different intents, hashed as the same", pair[0], pair[1])
		}
	}
	// Through a known intent key: strict decoding refuses the lone
	// surrogate, the intent is kept raw, and then collapsed the same way.
	var a, b api.Intent
	if err := json.Unmarshal([]byte(`{"createPolicyIntentV3":{"policyName":"x\ud800","effect":"EFFECT_ALLOW","condition":"true","consensus":"true"}}`), &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(`{"createPolicyIntentV3":{"policyName":"x\udbff","effect":"EFFECT_ALLOW","condition":"true","consensus":"true"}}`), &b); err != nil {
		t.Fatal(err)
	}
	if intentSum(a) == intentSum(b) {
		t.Errorf("two create-policy intents whose names differ by a lone-surrogate escape are hashed as the same intent")
	}
}

// Honest data: every demo activity read by list (both views), opened (get,
// re-read), must show no warning.
func TestRecordHonestDemoNoFalseSwap(t *testing.T) {
	d := servertest.StartDemo(t)
	bob := d.ClientAt(d.URL, "bob", api.WithExactStrings())
	h := newHarnessWith(t, bob, bob, theme.Options{Dark: true, NoColor: true}, 0)
	h.send(tea.WindowSizeMsg{Width: 200, Height: 300})
	check := func(where string) {
		t.Helper()
		for k, e := range h.activities().intents.byKey {
			if e.swapped {
				t.Errorf("%s: honest data marked swapped: %x", where, k[:4])
			}
		}
		if f := h.frame(); strings.Contains(f, swapWarning) || strings.Contains(f, swapRowMark) {
			t.Errorf("%s: warning on honest data:\n%s", where, f)
		}
	}
	check("pending list")
	ids := []string{}
	for _, it := range h.activities().items {
		ids = append(ids, it.ID)
	}
	for _, id := range ids {
		h.selectActivityID(id)
		h.key("enter")
		check("detail " + id)
		h.key("esc")
	}
	// Voting on each: the vote's reply and the refresh after it are copies
	// of the same activities.
	voted := 0
	for _, id := range ids {
		if !slices.ContainsFunc(h.activities().items, func(x api.Activity) bool { return x.ID == id }) {
			continue // settled by an earlier vote
		}
		for range len(h.activities().items) {
			h.key("up") // selectActivityID looks downwards only
		}
		h.selectActivityID(id)
		if sel := h.activities().selected(); sel == nil || sel.ID != id || !sel.CanApprove {
			continue
		}
		h.key("a")
		if !h.voteDialogOpen() {
			t.Fatalf("no approve dialog on honest activity %s:\n%s", id, h.frame())
		}
		h.key("y")
		h.key("r")
		check("after approving " + id)
		voted++
	}
	if voted == 0 {
		t.Errorf("set-up: bob could approve none of the demo's pending activities")
	}
}

// CPU: a refresh of 1000 activities with large intents. Hashing an intent
// (json.Marshal, a canonical re-encoding, SHA-256) is costly: the load
// command does it (sums), off the UI goroutine; Update compares sums only.
// Copies without sums (a detail's read, a vote's reply) skip the canonical
// form when their bytes are those seen last.
func benchItems(raw bool) []api.Activity {
	big := strings.Repeat("a", 64)
	items := make([]api.Activity, 1000)
	for i := range items {
		in := api.Intent{CreatePolicyIntentV3: &api.CreatePolicyParams{PolicyName: fmt.Sprint("p", i), Effect: api.EffectAllow,
			Condition: strings.Repeat("activity.type == '"+big+"' || ", 200) + "true", Consensus: "true"}}
		if raw {
			var sb strings.Builder
			sb.WriteString(`{"list":[`)
			for j := range 300 {
				if j > 0 {
					sb.WriteByte(',')
				}
				fmt.Fprintf(&sb, `{"k%d":"%s","n":%d,"z":[1,2,{"q":"\u0041"}]}`, j, big, j)
			}
			sb.WriteString(`]}`)
			in = rawIntent(sb.String())
		}
		items[i] = api.Activity{ID: fmt.Sprint("act-", i), Fingerprint: fmt.Sprint("fp-", i), Intent: in}
	}
	return items
}

// benchNote times the Update side of a refresh bringing the same rows
// again; summed: as the load command sends them, with their sums.
func benchNote(b *testing.B, raw, summed bool) {
	msg := activitiesLoadedMsg{items: benchItems(raw)}
	if summed {
		msg.sums, _ = intentSums(msg.items, nil)
	}
	a := &Activities{}
	a.noteCopies(msg) // the first sight of each: what follows is a refresh of the same rows
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		a.noteCopies(msg)
	}
}

func BenchmarkRecordNoteKnownIntents(b *testing.B)         { benchNote(b, false, true) }
func BenchmarkRecordNoteRawIntents(b *testing.B)           { benchNote(b, true, true) }
func BenchmarkRecordNoteRawIntentsUnsummed(b *testing.B)   { benchNote(b, true, false) }
func BenchmarkRecordNoteKnownIntentsUnsummed(b *testing.B) { benchNote(b, false, false) }

// BenchmarkRecordSumRawIntents times the load command's hashing of a
// first load (off the UI goroutine); …Again that of a refresh bringing the
// same intents, given the sums of the load before.
func BenchmarkRecordSumRawIntents(b *testing.B) { benchSums(b, false) }

func BenchmarkRecordSumRawIntentsAgain(b *testing.B) { benchSums(b, true) }

func benchSums(b *testing.B, again bool) {
	items := benchItems(true)
	var prev rawSums
	if again {
		_, prev = intentSums(items, nil)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		intentSums(items, prev)
	}
}

// Honest data: a submit reply handed over (as a form does), then the
// list and get of the same activity.
func TestRecordHonestSubmitReplyNoFalseSwap(t *testing.T) {
	d := servertest.StartDemo(t)
	bob := d.ClientAt(d.URL, "bob", api.WithExactStrings())
	h := newHarnessWith(t, bob, bob, theme.Options{Dark: true, NoColor: true}, 0)
	h.send(tea.WindowSizeMsg{Width: 200, Height: 300})
	act, err := bob.CreatePolicy(context.Background(), api.CreatePolicyParams{PolicyName: "hon <&> \u00e9", Effect: api.EffectDeny,
		Condition: "activity.type == 'X'", Consensus: "approvers.count() >= 2", Notes: "n"})
	if err != nil {
		t.Fatal(err)
	}
	h.send(ShowActivityMsg{ID: act.ID, Activity: act})
	h.key("r")
	for k, e := range h.activities().intents.byKey {
		if e.swapped {
			t.Errorf("honest submit reply marked swapped: %x", k[:4])
		}
	}
	if f := h.frame(); strings.Contains(f, swapWarning) {
		t.Errorf("warning on honest data:\n%s", f)
	}
}

// A vote signs the fingerprint alone: one fingerprint under two activity
// ids is a swap even when both carry the same intent, and every row with
// it is marked; an id sent without a fingerprint is no fingerprint shared.
func TestRecordFingerprintUnderTwoIDs(t *testing.T) {
	var s intentsSeen
	a := api.Activity{ID: "act-a", Fingerprint: "fp-1", Intent: rawIntent(`{"v":1}`)}
	b := a
	b.ID = "act-b"
	s.note(&a)
	s.note(&a) // the same bytes again: no canonical form, still one entry
	if !s.note(&b) || !s.swapped(a.ID, a.Fingerprint) || !s.swapped(b.ID, b.Fingerprint) {
		t.Errorf("fingerprint %s came under %s and %s, yet is not a swap", a.Fingerprint, a.ID, b.ID)
	}
	x := api.Activity{ID: "act-x", Intent: rawIntent(`{"v":1}`)}
	y := api.Activity{ID: "act-y", Intent: rawIntent(`{"v":2}`)}
	if s.note(&x) || s.note(&y) || s.swapped(x.ID, "") || s.swapped(y.ID, "") {
		t.Errorf("two activities sent without fingerprints are called one fingerprint with two intents")
	}
}
