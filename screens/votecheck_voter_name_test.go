package screens

import (
	"strings"
	"testing"

	"github.com/vigil-console/vigil/server/servertest"
)

// renameVote sets the "user" object's userName of userID's vote to name,
// as a proxy relabelling the reply would; the vote's userId, key,
// message and signature stay as signed.
func renameVote(userID, name string) func(act map[string]any) {
	return func(act map[string]any) {
		for _, v := range act["votes"].([]any) {
			if v := v.(map[string]any); v["userId"] == userID {
				u, _ := v["user"].(map[string]any)
				if u == nil {
					u = map[string]any{}
					v["user"] = u
				}
				u["userName"] = name
			}
		}
	}
}

// Audit 195: a proxy renames alice's vote "bob". Her vote verifies and her
// key is hers in the user list the console holds: the detail and the vote
// dialog name her from the list, never bob, and warn that the vote itself
// names someone else.
func TestConsoleNamesAVoterFromTheUserListNotTheVotesOwnLabel(t *testing.T) {
	d := servertest.StartDemo(t)
	a := votedTagFor(t, d, "renamed-voter")
	alice := memberIDOf(t, d, "alice")
	h := carolVia(t, d, a.ID, renameVote(alice, "bob"))
	text := spaced(h.detailText())
	if strings.Contains(text, `"bob"'s API keys`) || !strings.Contains(text, `by one of "alice"'s API keys, as the organization's user list shows`) {
		t.Errorf("alice's vote, renamed bob by the reply, does not name alice's key:\n%s", text)
	}
	if !strings.Contains(text, "approved alice ("+alice+")") {
		t.Errorf("alice's vote, renamed bob by the reply, is not shown as alice's:\n%s", text)
	}
	if !strings.Contains(text, `⚠ the vote itself names its voter "bob"`) {
		t.Errorf("the detail does not warn that the vote names another voter than the list:\n%s", text)
	}
	h.key("a")
	if !h.voteDialogOpen() {
		t.Fatalf("set-up: no approve dialog:\n%s", h.frame())
	}
	f := h.frame()
	if strings.Contains(f, `"bob" approved`) || !strings.Contains(f, `"alice" (WARNING: the vote itself`) || !strings.Contains(f, `names them "bob") approved`) {
		t.Errorf("the vote dialog's votes do not name alice, with a warning:\n%s", f)
	}
}

// A vote whose userId the console's user list does not hold: its own name
// is shown as the vote's word, and its key check says the list does not
// hold the id (not that the console holds no list).
func TestConsoleMarksAVoterTheUserListDoesNotHold(t *testing.T) {
	d := servertest.StartDemo(t)
	a := votedTagFor(t, d, "unlisted-voter")
	alice := memberIDOf(t, d, "alice")
	unlisted := strings.ToUpper(alice)
	h := carolVia(t, d, a.ID, func(act map[string]any) {
		for _, v := range act["votes"].([]any) {
			if v := v.(map[string]any); v["userId"] == alice {
				v["userId"] = unlisted
			}
		}
	})
	text := spaced(h.detailText())
	if !strings.Contains(text, `approved alice (as the vote says; not in the organization's user list) (`+unlisted+")") {
		t.Errorf("a voter the list does not hold is not marked as named by the vote:\n%s", text)
	}
	if strings.Contains(text, "the console holds no user list") || !strings.Contains(text, "the organization's user list the console holds does not hold this user id") {
		t.Errorf("the key check of a voter the list does not hold misstates why:\n%s", text)
	}
}

// spaced is text with its runs of spaces and line breaks as one space:
// the detail wraps long lines.
func spaced(text string) string { return strings.Join(strings.Fields(text), " ") }
