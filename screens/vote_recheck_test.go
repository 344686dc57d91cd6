package screens

import (
	"fmt"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// A vote's outcome is unknown (no reply, and the read after it failed); r
// re-reads the activity (recheckVote). Before that read answers, the user
// votes again on the same activity (a and x stay enabled). The recheck's
// answer must leave the second vote in flight: one vote at a time, and q
// asks before quitting while it is out.
func TestVoteRecheckLeavesTheVoteInFlight(t *testing.T) {
	fake := &fakeClient{activities: sampleActivities()}
	h := newHarness(t, fake, false, 0)
	a := h.activities()
	// Vote 1: no clear reply, and the activity could not be read again.
	a.voting = "act-policy"
	h.send(activityVotedMsg{id: "act-policy", approve: true, voter: api.Voter{UserID: "u-alice"}, before: &sampleActivities()[0], err: fmt.Errorf("approve: %w", api.ErrOutcomeUnknown)})
	if a.unsure == nil {
		t.Fatal("set-up: the outcome is not unknown")
	}
	recheck := a.recheckVote() // r: in flight
	// Vote 2 on the same activity, in flight (its command not run yet).
	h.key("a")
	if !h.voteDialogOpen() {
		t.Fatalf("set-up: no dialog for the second vote:\n%s", h.frame())
	}
	h.armDialogs()
	h.root.Update(keyPress("y"))
	if a.voting != "act-policy" {
		t.Fatalf("set-up: the second vote is not in flight")
	}
	// The recheck answers: the activity does not show vote 1.
	h.send(recheck())
	if a.voting != "act-policy" {
		t.Errorf("the recheck's answer cleared the vote in flight: a/x enabled = %v/%v, votes in flight for q: %v",
			a.keys.Approve.Enabled(), a.keys.Reject.Enabled(), a.votesInFlight())
	}
}

// The recheck's read was made before the second vote and answers after it
// counted: it must not be reported as a vote the activity does not show
// ("press a or x to vote again") after the toast that said the second vote
// completed it.
func TestVoteRecheckReadBeforeACountedVoteIsNotReported(t *testing.T) {
	fake := &fakeClient{activities: sampleActivities()}
	h := newHarness(t, fake, false, 0)
	a := h.activities()
	a.voting = "act-policy"
	h.send(activityVotedMsg{id: "act-policy", approve: true, voter: api.Voter{UserID: "u-alice"}, before: &sampleActivities()[0], err: fmt.Errorf("approve: %w", api.ErrOutcomeUnknown)})
	late := a.recheckVote()() // read now, answered later
	h.key("a")
	h.key("y") // counts: the fake completes it
	if _, approvals, _ := fake.counts(); approvals != 1 {
		t.Fatalf("set-up: the second vote was not sent")
	}
	before := len(h.msgs)
	h.send(late)
	if toasted(h.msgs[before:], "does not show your vote") || a.voteErr != "" {
		t.Errorf("a read made before the vote that counted is reported after it: %v; status: %q", h.msgs[before:], a.voteErr)
	}
}
