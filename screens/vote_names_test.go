package screens

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vigil-console/vigil/api"
)

// A member whose name imitates another's (a Cyrillic о in "bоb") is marked
// on the vote dialog's "if you approve:" line as on its votes line: the
// policy engine's sentence names members as api.NameText shows them.
func TestVoteDialogOutcomeLineMarksALookAlikeName(t *testing.T) {
	impostor := "b\u043eb"
	acts := sampleActivities()
	acts[0].Votes[0].User.UserName = impostor
	fake := &fakeClient{activities: acts, users: []api.User{{UserID: "u-alice", UserName: "alice"},
		{UserID: "u-bob", UserName: impostor}, {UserID: "u-carol", UserName: "carol"}}}
	h := newHarness(t, fake, false, 0)
	h.send(tea.WindowSizeMsg{Width: 160, Height: 48})
	h.key("a")
	// The line wraps: read the dialog's words from "if you approve:" to the
	// end of that sentence's parenthesis.
	var words []string
	for _, l := range strings.Split(ansi.Strip(h.root.Render()), "\n") {
		words = append(words, strings.Fields(strings.Trim(strings.TrimSpace(l), "│"))...)
	}
	flat := strings.Join(words, " ")
	i := strings.Index(flat, "if you approve:")
	if i < 0 {
		t.Fatalf("no outcome line in the dialog:\n%s", ansi.Strip(h.root.Render()))
	}
	outcome, _, _ := strings.Cut(flat[i:], ")")
	if strings.Contains(outcome, impostor) || !strings.Contains(outcome, api.NameText(impostor)) {
		t.Errorf("the outcome line names the look-alike member as it is, not as %s:\n%s", api.NameText(impostor), outcome)
	}
}
