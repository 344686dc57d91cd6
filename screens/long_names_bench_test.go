package screens

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// Service-given texts of 10,000 characters (a name, an intent's string) in
// every view that shows them whole, at 120×40, beside the same views with
// ordinary names ("short"). Each shape stresses the width measuring, the
// quoting and the wrapping in its own way.
//
//	go test ./screens -run '^$' -bench BenchmarkLongName -benchmem -benchtime 20x

// longNameShapes are texts of n characters (runes) of several shapes, and
// an ordinary name to compare with.
func longNameShapes(n int) []struct{ name, text string } {
	fill := func(unit string) string {
		r := []rune(strings.Repeat(unit, n/len([]rune(unit))+1))
		return string(r[:n])
	}
	return []struct{ name, text string }{
		{"short", "Reviewed invitations"},
		{"ascii-words", fill("lorem ipsum dolor ")},
		{"cjk", fill("財務チーム")},
		{"combining", fill("e\u0301a\u0308")},
		{"no-spaces", fill("L")},
		{"hostile", fill("W財\u202e\x1b]0;pwned\x07\u009bо")},
	}
}

// jsonInner is s as it stands inside a JSON string.
func jsonInner(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}

// longNameDemo is the local service with a create_policy pending for bob
// whose name and notes, as bob's client reads them through a rewriting
// proxy, are text, as are the stored policy "Never delete the treasury
// account" and the user name of carol; it returns bob's console at 120×40
// with the list's cursor on that activity.
func longNameDemo(tb testing.TB, text string) (*harness, *api.Activity) {
	d := servertest.StartDemo(tb)
	act, err := d.Client("alice").CreatePolicy(context.Background(), api.CreatePolicyParams{PolicyName: "LONGNAMEMARK",
		Effect: api.EffectAllow, Condition: "true", Consensus: "approvers.count() >= 1", Notes: "LONGNOTESMARK"})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		tb.Fatalf("propose: %+v %v", act, err)
	}
	inner := jsonInner(text)
	rewrite := strings.NewReplacer("LONGNAMEMARK", inner, "LONGNOTESMARK", inner,
		"Never delete the treasury account", inner, `"userName":"carol"`, `"userName":"`+inner+`"`)
	bob := d.ClientAt(d.Rewriting(func(_ string, _, reply []byte) []byte {
		return []byte(rewrite.Replace(string(reply)))
	}), "bob", api.WithExactStrings())
	return consoleAt(tb, bob, act.ID), act
}

// consoleAt is c's console, dark without colour, at 120×40 with the list's
// cursor on the activity id.
func consoleAt(tb testing.TB, c *api.Client, id string) *harness {
	tb.Helper()
	h := newHarnessWith(tb, c, c, theme.Options{Dark: true, NoColor: true}, 0)
	h.send(tea.WindowSizeMsg{Width: 120, Height: 40})
	h.selectActivityID(id)
	return h
}

// forLongNames runs bench once per shape of longNameShapes(10000), on
// longNameDemo's console for that text.
func forLongNames(b *testing.B, bench func(b *testing.B, h *harness)) {
	for _, s := range longNameShapes(10000) {
		b.Run(s.name, func(b *testing.B) {
			h, _ := longNameDemo(b, s.text)
			bench(b, h)
		})
	}
}

// openVoteDialog presses a and fails unless the vote dialog opened.
func openVoteDialog(tb testing.TB, h *harness) {
	tb.Helper()
	h.key("a")
	if !h.voteDialogOpen() {
		tb.Fatalf("no vote dialog:\n%s", h.frame())
	}
}

// loopKeyPair presses first, then second, drawing a frame after each, every
// loop of b.
func loopKeyPair(b *testing.B, h *harness, first, second string) {
	for b.Loop() {
		h.key(first)
		_ = h.root.Render()
		h.key(second)
		_ = h.root.Render()
	}
}

// loopKeySweep presses down every loop of b, then up, switching every run
// presses, drawing a frame after each.
func loopKeySweep(b *testing.B, h *harness, down, up string, run int) {
	i := 0
	for b.Loop() {
		k := down
		if i/run%2 == 1 {
			k = up
		}
		i++
		h.key(k)
		_ = h.root.Render()
	}
}

// The Activities detail open on that activity: the detail rendered again
// (as on every refresh, reply and clock change) and the whole frame drawn.
func BenchmarkLongNameDetailFrame(b *testing.B) {
	forLongNames(b, func(b *testing.B, h *harness) {
		h.key("enter")
		a := h.activities()
		if a.detail == nil {
			b.Fatal("the detail did not open")
		}
		for b.Loop() {
			a.detail.render(h.root.common)
			_ = h.root.Render()
		}
	})
}

// Opening the detail (enter: the record, evaluations, app proofs and MFA
// status fetched from the local service, each reply rendered) and closing
// it, each with a frame.
func BenchmarkLongNameDetailOpen(b *testing.B) {
	forLongNames(b, func(b *testing.B, h *harness) {
		loopKeyPair(b, h, "enter", "esc")
	})
}

// The vote dialog over the open detail (a, then esc), each with a frame: it
// restates the whole intent, the name and notes included.
func BenchmarkLongNameVoteDialog(b *testing.B) {
	forLongNames(b, func(b *testing.B, h *harness) {
		h.key("enter")
		openVoteDialog(b, h)
		h.key("esc")
		loopKeyPair(b, h, "a", "esc")
	})
}

// The Users screen with carol's record open, the cursor moved off and back
// (each move shows the record under it), each with a frame.
func BenchmarkLongNameUsers(b *testing.B) {
	forLongNames(b, func(b *testing.B, h *harness) {
		h.gotoScreen("Users")
		loopKeyPair(b, h, "j", "k")
	})
}

// The Policies screen, the cursor moved down and up over the policies (one
// named by the text), each move with a frame.
func BenchmarkLongNamePolicies(b *testing.B) {
	forLongNames(b, func(b *testing.B, h *harness) {
		h.toPolicies()
		loopKeySweep(b, h, "j", "k", 8)
	})
}

// One ↓ or ↑ in the open vote dialog and a frame: the dialog keeps its body
// wrapped, so a keystroke costs what is in view.
func BenchmarkLongNameVoteDialogKeystroke(b *testing.B) {
	forLongNames(b, func(b *testing.B, h *harness) {
		h.key("enter")
		openVoteDialog(b, h)
		loopKeySweep(b, h, "down", "up", 100)
	})
}
