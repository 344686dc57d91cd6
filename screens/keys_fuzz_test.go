package screens

import (
	"math/rand/v2"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// Any sequence of keys, in any state, at any size: no panic, never more than one
// vote per confirmed dialog, and a frame of the window's height.
func FuzzKeySequences(f *testing.F) {
	f.Add("a y a y x y", uint8(80), uint8(24))
	f.Add("enter a n / b o b enter Y y esc esc v s t ] [ r p ? 2 1", uint8(100), uint8(30))
	f.Add("/ q q esc G g k j enter x enter", uint8(20), uint8(5))
	f.Fuzz(func(t *testing.T, seq string, w, h uint8) {
		fake := &fakeClient{activities: sampleActivities()}
		hs := newHarness(t, fake, false, 0)
		hs.send(tea.WindowSizeMsg{Width: int(w), Height: int(h)})
		yes := 0
		for _, k := range strings.Fields(seq) {
			if k == "ctrl+c" || k == "q" && !hs.root.screens[hs.root.active].Capturing() {
				continue // quitting ends the sequence in a real program
			}
			if k == "y" && hs.voteDialogOpen() && hs.root.active == 0 {
				yes++
			}
			hs.key(k)
			if got := strings.Count(hs.root.Render(), "\n") + 1; got != max(int(h), 1) {
				t.Fatalf("after %q the frame has %d lines, want %d", k, got, max(int(h), 1))
			}
		}
		if _, n, m := fake.counts(); n+m > yes {
			t.Errorf("%d votes sent for %d confirmations", n+m, yes)
		}
	})
}

func TestRandomKeySequences(t *testing.T) {
	keys := []string{"a", "x", "y", "Y", "n", "enter", "esc", "/", "b", "o", "j", "k", "g", "G", "v", "s", "t", "]", "[", "r", "p", "?", "1", "2", "tab", "shift+tab", "backspace", "up", "down"}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 30 {
		var seq []string
		for range 40 {
			seq = append(seq, keys[rng.IntN(len(keys))])
		}
		fake := &fakeClient{activities: sampleActivities()}
		h := newHarness(t, fake, false, 0)
		yes := 0
		for _, k := range seq {
			if k == "y" && h.voteDialogOpen() && h.root.active == 0 {
				yes++
			}
			h.key(k)
		}
		if _, n, m := fake.counts(); n+m > yes {
			t.Fatalf("%d votes for %d confirmations after %v", n+m, yes, seq)
		}
	}
}
