package screens

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

const swapWarning = "another intent under this same fingerprint"

// swappingEverywhere is swappingIntent's set-up, but the hostile service,
// once swap is set, serves the ALLOW intent in every reply (the list too),
// as a consistent attacker would.
func swappingEverywhere(t *testing.T, open bool) (h *harness, act *api.Activity, swap *atomic.Bool) {
	t.Helper()
	d := servertest.StartDemo(t)
	act, err := d.Client("alice").CreatePolicy(context.Background(), api.CreatePolicyParams{PolicyName: "swap-orig-name",
		Effect: api.EffectDeny, Condition: "true", Consensus: "approvers.count() >= 1"})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("propose: %+v %v", act, err)
	}
	swap = new(atomic.Bool)
	rewrite := strings.NewReplacer("swap-orig-name", "swap-EVIL-name", "EFFECT_DENY", "EFFECT_ALLOW")
	bob := d.ClientAt(d.Rewriting(func(op string, _, reply []byte) []byte {
		if swap.Load() {
			return []byte(rewrite.Replace(string(reply)))
		}
		return reply
	}), "bob", api.WithExactStrings())
	h = newHarnessWith(t, bob, bob, theme.Options{Dark: true, NoColor: true}, 0)
	h.send(tea.WindowSizeMsg{Width: 160, Height: 300})
	h.selectActivityID(act.ID)
	if open {
		h.key("enter")
		if !strings.Contains(h.frame(), `"policyName": "swap-orig-name"`) {
			t.Fatalf("set-up: detail not open with the original intent:\n%s", h.frame())
		}
	}
	return h, act, swap
}

// The console saw one fingerprint come with two intents and warned; after
// esc and enter (the same activity opened again) the warning is gone, the
// second intent is shown as if nothing happened, and an approve dialog on it
// opens with no warning at all.
func TestSwapWarningLostOnReopen(t *testing.T) {
	h, act, swap := swappingEverywhere(t, true)
	swap.Store(true)
	h.key("r") // a refresh: the list and the detail read again
	if f := h.frame(); !strings.Contains(f, swapWarning) || !strings.Contains(f, "swap-EVIL-name") {
		t.Fatalf("set-up: no warning after the swap:\n%s", f)
	}
	h.key("esc")
	if h.activities().detail != nil {
		t.Fatalf("set-up: detail still open")
	}
	h.selectActivityID(act.ID)
	h.key("enter")
	f := h.frame()
	if !strings.Contains(f, "swap-EVIL-name") {
		t.Fatalf("set-up: reopened detail does not show the second intent:\n%s", f)
	}
	if !strings.Contains(f, swapWarning) {
		t.Errorf("reopened, the detail shows the second intent under the same fingerprint with no warning: the evidence is forgotten")
	}
	before := len(h.msgs)
	h.key("a")
	if h.voteDialogOpen() {
		t.Fatalf("an approve dialog opens on the swapped intent:\n%s", strings.Join(h.activities().asking.vote.dialog.Lines, "\n"))
	}
	if !toasted(h.msgs[before:], "you cannot approve this activity: the service sent another intent under this same fingerprint") {
		t.Errorf("a refused approval does not say why: %v", h.msgs[before:])
	}
	// A rejection is safe whichever intent the service holds: allowed,
	// and its dialog says what the console saw.
	h.key("x")
	if !h.voteDialogOpen() {
		t.Fatalf("no reject dialog on the swapped activity:\n%s", h.frame())
	}
	if lines := h.activities().asking.vote.dialog.Lines; len(lines) == 0 || !strings.Contains(lines[0], swapWarning) {
		t.Errorf("the reject dialog does not start with the swap's warning:\n%s", strings.Join(lines, "\n"))
	}
}

// Approve from the list, the detail never opened: the row held the DENY
// intent, a refresh brings an ALLOW intent under the same fingerprint, and
// `a` opens an approve dialog on the ALLOW intent with no warning.
func TestSwapOnListRowApprovedWithoutWarning(t *testing.T) {
	h, _, swap := swappingEverywhere(t, false)
	if !strings.Contains(h.frame(), "swap-orig-name") {
		t.Fatalf("set-up: the row does not show the original intent:\n%s", h.frame())
	}
	swap.Store(true)
	h.key("r")
	if !strings.Contains(h.frame(), "swap-EVIL-name") {
		t.Fatalf("set-up: the row did not take the second intent:\n%s", h.frame())
	}
	if row := rowWith(h.frame(), "swap-EVIL-name"); !strings.Contains(row, swapRowMark) {
		t.Errorf("the row of the swapped activity is not marked: %q", row)
	}
	before := len(h.msgs)
	h.key("a")
	if h.voteDialogOpen() {
		t.Errorf("the list saw the fingerprint with two intents, yet `a` opens an approve dialog on the second:\n%s", h.frame())
	}
	if !toasted(h.msgs[before:], "you cannot approve this activity") {
		t.Errorf("a refused approval does not say why: %v", h.msgs[before:])
	}
}

// rowWith is the frame's first line holding text, or "".
func rowWith(frame, text string) string {
	for l := range strings.SplitSeq(frame, "\n") {
		if strings.Contains(l, text) {
			return l
		}
	}
	return ""
}

// With the warning on screen ("do not approve it"), `a` opens no approve
// dialog: y would sign a fingerprint whose intent cannot be told.
func TestSwapWarningDoesNotGateTheVote(t *testing.T) {
	h, _, swap := swappingEverywhere(t, true)
	swap.Store(true)
	h.run(h.activities().detail.loadRecord(h.root.common))
	if !strings.Contains(h.frame(), swapWarning) {
		t.Fatalf("set-up: no warning:\n%s", h.frame())
	}
	h.key("a")
	if h.voteDialogOpen() {
		t.Errorf("the detail says do not approve, yet an approve dialog opens on the swapped intent:\n%s", strings.Join(h.activities().asking.vote.dialog.Lines, "\n"))
	}
}

// A benign re-encoding: the service (or a proxy) sends the same intent with
// its members in another order. A member the client does not know keeps the
// intent raw (api.Intent.Other), and intentSum hashes the raw bytes: the
// detail then warns that the service sent "another intent" when it did not.
func TestSwapWarningFalseOnKeyOrder(t *testing.T) {
	d := servertest.StartDemo(t)
	act, err := d.Client("alice").CreatePolicy(context.Background(), api.CreatePolicyParams{PolicyName: "reorder-name",
		Effect: api.EffectDeny, Condition: "true", Consensus: "approvers.count() >= 1"})
	if err != nil {
		t.Fatal(err)
	}
	addNote := strings.NewReplacer(`"createPolicyIntentV3":{`, `"createPolicyIntentV3":{"zNote":"n",`)
	bob := d.ClientAt(d.Rewriting(func(op string, _, reply []byte) []byte {
		out := []byte(addNote.Replace(string(reply)))
		if !strings.Contains(op, "get_activity") {
			return out
		}
		// get_activity: the same JSON, members sorted (a re-encoding proxy).
		dec := json.NewDecoder(bytes.NewReader(out))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			return out
		}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			return out
		}
		return bytes.TrimSpace(buf.Bytes())
	}), "bob", api.WithExactStrings())
	h := newHarnessWith(t, bob, bob, theme.Options{Dark: true, NoColor: true}, 0)
	h.send(tea.WindowSizeMsg{Width: 160, Height: 300})
	h.selectActivityID(act.ID)
	row := h.activities().selected()
	if len(row.Intent.Other) == 0 {
		t.Fatalf("set-up: the intent is not kept raw: %+v", row.Intent)
	}
	h.key("enter")
	det := h.activities().detail
	if det == nil || det.order.sent == 0 {
		t.Fatalf("set-up: detail not open/read")
	}
	if f := h.frame(); strings.Contains(f, swapWarning) {
		t.Errorf("the same intent with its members in another order is called another intent under this fingerprint:\n%s", f)
	}
}

// A(F1) → C(F2) → B(F1): the service moves the activity to another
// fingerprint and back, bringing another intent under the first one. take
// compares a copy only with the copy held, so F1's second intent is shown
// with no warning although the detail held F1 with another intent before.
func TestSwapHiddenByFingerprintDetour(t *testing.T) {
	d := servertest.StartDemo(t)
	act, err := d.Client("alice").CreatePolicy(context.Background(), api.CreatePolicyParams{PolicyName: "swap-orig-name",
		Effect: api.EffectDeny, Condition: "true", Consensus: "approvers.count() >= 1"})
	if err != nil {
		t.Fatal(err)
	}
	var phase atomic.Int32
	fp := strings.TrimPrefix(act.Fingerprint, "sha256:")
	detour := strings.NewReplacer(fp, strings.Repeat("0", len(fp)))
	swap := strings.NewReplacer("swap-orig-name", "swap-EVIL-name", "EFFECT_DENY", "EFFECT_ALLOW")
	bob := d.ClientAt(d.Rewriting(func(op string, _, reply []byte) []byte {
		switch phase.Load() {
		case 1:
			return []byte(detour.Replace(string(reply)))
		case 2:
			return []byte(swap.Replace(string(reply)))
		}
		return reply
	}), "bob", api.WithExactStrings())
	h := newHarnessWith(t, bob, bob, theme.Options{Dark: true, NoColor: true}, 0)
	h.send(tea.WindowSizeMsg{Width: 160, Height: 300})
	h.selectActivityID(act.ID)
	h.key("enter")
	det := h.activities().detail
	for p := int32(1); p <= 2; p++ {
		phase.Store(p)
		h.run(det.loadRecord(h.root.common))
	}
	f := h.frame()
	if det.activity.Fingerprint != act.Fingerprint || !strings.Contains(f, "swap-EVIL-name") {
		t.Fatalf("set-up: the detail does not hold the second intent under the first fingerprint (%s):\n%s", det.activity.Fingerprint, f)
	}
	if !strings.Contains(f, swapWarning) {
		t.Errorf("the detail held %s with a DENY intent, now holds it with an ALLOW one, and says nothing", act.Fingerprint)
	}
}

// rawIntent is an intent of a type vigil does not know, kept as sent.
func rawIntent(body string) api.Intent {
	return api.Intent{Other: map[string]json.RawMessage{"someOtherIntentV9": json.RawMessage(body)}}
}

// The same intent re-encoded (members in another order, escaped another
// way, spaced) is the same intent; anything that reads otherwise is not:
// another value, a number written otherwise, a member sent twice (decoding
// would keep one of the two), bytes that are not UTF-8.
func TestIntentSumIgnoresReEncodingOnly(t *testing.T) {
	base := `{"name":"a<b","limits":{"max":10,"min":1},"tags":["x","y"]}`
	for _, same := range []string{
		`{"tags":["x","y"],"limits":{"min":1,"max":10},"name":"a<b"}`,
		`{ "name" : "a\u003cb", "limits" : { "max" : 10, "min" : 1 }, "tags" : [ "x", "y" ] }`,
		`{"n\u0061me":"a<b","limits":{"max":10,"min":1},"tags":["x","y"]}`,
	} {
		if intentSum(rawIntent(same)) != intentSum(rawIntent(base)) {
			t.Errorf("%s is the same intent as %s, yet hashed as another", same, base)
		}
	}
	for _, other := range []string{
		`{"name":"a>b","limits":{"max":10,"min":1},"tags":["x","y"]}`,
		`{"name":"a<b","limits":{"max":10.0,"min":1},"tags":["x","y"]}`,
		`{"name":"a<b","limits":{"max":10,"min":1},"tags":["y","x"]}`,
	} {
		if intentSum(rawIntent(other)) == intentSum(rawIntent(base)) {
			t.Errorf("%q is not the intent %s, yet hashed as the same", other, base)
		}
	}
	// Pairs a decoder would read alike (which of two members wins is the
	// reader's choice; bytes that are not UTF-8 all read as U+FFFD) but
	// that are not the same bytes re-encoded.
	for _, pair := range [][2]string{
		{`{"max":1,"max":2}`, `{"max":2,"max":1}`},
		{"{\"name\":\"a\xff\"}", "{\"name\":\"a\xfe\"}"},
	} {
		if intentSum(rawIntent(pair[0])) == intentSum(rawIntent(pair[1])) {
			t.Errorf("%q and %q are hashed as the same intent", pair[0], pair[1])
		}
	}
}

// The record is bounded, and a service sending thousands of other
// fingerprints does not wash out a fingerprint seen with two intents.
func TestIntentsSeenBoundedKeepsSwaps(t *testing.T) {
	var s intentsSeen
	first := api.Activity{ID: "act-1", Fingerprint: "fp-1", Intent: rawIntent(`{"v":1}`)}
	second := first
	second.Intent = rawIntent(`{"v":2}`)
	s.note(&first)
	if !s.note(&second) || !s.swapped(first.ID, first.Fingerprint) {
		t.Fatalf("set-up: one fingerprint with two intents is not a swap")
	}
	for i := range 3 * maxIntentsSeen {
		s.note(&api.Activity{ID: "act-1", Fingerprint: fmt.Sprintf("fp-rotated-%d", i), Intent: first.Intent})
		if len(s.byKey) > maxIntentsSeen {
			t.Fatalf("the record holds %d entries, over its bound of %d", len(s.byKey), maxIntentsSeen)
		}
	}
	if !s.swapped(first.ID, first.Fingerprint) {
		t.Errorf("after %d other fingerprints, the swap of %s is forgotten", 3*maxIntentsSeen, first.Fingerprint)
	}
}
