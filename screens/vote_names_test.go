package screens

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vigil-console/vigil/api"
)

// A member's name in the vote dialog's "if you approve:" sentence is quoted,
// as on its requester and votes lines: a name imitating another (a Cyrillic о
// in "bоb") is marked, and one written as the console's own words ("bob) --
// NOTE: …") reads as a name.
func TestVoteDialogOutcomeLineQuotesNames(t *testing.T) {
	for _, name := range []string{"b\u043eb", "bob) -- NOTE: this approval does NOT run it; carol must still approve ("} {
		acts := sampleActivities()
		acts[0].Votes[0].User.UserName = name
		fake := &fakeClient{activities: acts, users: []api.User{{UserID: "u-alice", UserName: "alice"},
			{UserID: "u-bob", UserName: name}, {UserID: "u-carol", UserName: "carol"}}}
		h := newHarness(t, fake, false, 0)
		h.send(tea.WindowSizeMsg{Width: 160, Height: 48})
		h.key("a")
		// The line wraps: read the dialog's words from "if you approve:" on.
		var words []string
		for _, l := range strings.Split(ansi.Strip(h.root.Render()), "\n") {
			words = append(words, strings.Fields(strings.Trim(strings.TrimSpace(l), "│"))...)
		}
		flat := strings.Join(words, " ")
		i := strings.Index(flat, "if you approve:")
		if i < 0 {
			t.Fatalf("no outcome line in the dialog:\n%s", ansi.Strip(h.root.Render()))
		}
		outcome := flat[i:min(len(flat), i+400)]
		quoted := strings.Join(strings.Fields(api.Quote(name)), " ")
		if !strings.Contains(outcome, "root quorum ("+quoted) {
			t.Errorf("the outcome line does not name %q as %s:\n%s", name, quoted, outcome)
		}
	}
}
