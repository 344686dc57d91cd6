package screens

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// Below the minimum size the console drops keys (a y must never answer a
// dialog later, by surprise): its message must say they are ignored, not
// that they wait, and a key typed then must not act once it is larger.
func TestTooSmallSaysKeysAreIgnoredAndIgnoresThem(t *testing.T) {
	h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 0)
	h.send(tea.WindowSizeMsg{Width: 50, Height: 15})
	said := strings.Join(strings.Fields(h.frame()), " ")
	if !strings.Contains(said, "keys are ignored until it is larger") || strings.Contains(said, "wait") {
		t.Errorf("the too-small message does not say keys are ignored: %q", said)
	}
	before := h.root.active
	h.key("2")
	h.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	if h.root.active != before {
		t.Errorf("a key typed while too small acted once the window grew: screen %d, was %d", h.root.active, before)
	}
}
