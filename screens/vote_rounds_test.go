package screens

import (
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// A vote's 24-hour round ends while the vote dialog is open: the service's
// copy has no votes (they no longer count), with the same status and
// updatedAt. The dialog must not keep showing the expired approval and "it
// is allowed and runs now", and the list must not keep the expired votes
// (the copy with fewer votes is the newer one).
func TestVoteDialogShowsTheEndOfAVotesRound(t *testing.T) {
	fake := &fakeClient{activities: sampleActivities()[:1]} // act-policy, bob's approval
	h, now := newClockedHarness(t, fake)
	a := h.activities()
	h.key("a")
	text := func() string {
		body, _ := dialogBody(t, h.frame(), "Approve this activity?")
		return strings.Join(strings.Fields(strings.Join(body, " ")), " ")
	}
	if before := text(); !strings.Contains(before, "runs now") {
		t.Fatalf("set-up: bob approved, alice's approval meets the quorum of 2:\n%s", before)
	}
	// 24 hours on, the round has ended: the service shows no votes.
	*now = testNow.Add(25 * time.Hour)
	fake.mu.Lock()
	fake.activities[0].Votes = nil
	fake.mu.Unlock()
	h.run(a.load())
	h.send(clockMsg{})
	after := text()
	if strings.Contains(after, `"bob" approved`) || strings.Contains(after, "runs now") {
		t.Errorf("the round ended and the service shows no votes, but the dialog still shows bob's expired approval and that alice's vote runs it:\n%s", after)
	}
	h.key("esc")
	if n := len(a.items[0].Votes); n != 0 {
		t.Errorf("after a refresh the list still holds %d expired vote(s): a reply with fewer votes is taken for an older copy", n)
	}
}

// Alice approved in a round that has ended; the service offers her a vote
// again (canApprove). After r the console offers it too, instead of keeping
// its copy with her expired vote and refusing "you already approved it".
func TestVoteIsOfferedAgainAfterYourVotesRoundEnded(t *testing.T) {
	acts := sampleActivities()[:1]
	acts[0].Votes = append(acts[0].Votes, api.Vote{ID: "v-alice", UserID: "u-alice", User: api.User{UserName: "alice"},
		Selection: api.VoteApproved, CreatedAt: api.NewTime(testNow.Add(-4 * time.Minute))})
	acts[0].CanApprove, acts[0].CanReject = false, false
	fake := &fakeClient{activities: acts}
	h, now := newClockedHarness(t, fake)
	a := h.activities()
	*now = testNow.Add(25 * time.Hour)
	fake.mu.Lock()
	fake.activities[0].Votes = nil
	fake.activities[0].CanApprove, fake.activities[0].CanReject = true, true
	fake.mu.Unlock()
	h.key("r")
	before := len(h.msgs)
	h.key("a")
	if !h.voteDialogOpen() {
		t.Errorf("the service offers alice a vote in the new round, but a says: %v", h.msgs[before:])
	}
	if n := len(a.items[0].Votes); n != 0 {
		t.Errorf("after r the list still holds %d expired vote(s)", n)
	}
}

// A new round can hold as many votes as the one that ended, with the same
// status and updatedAt: the dialog tells the copies apart by their votes,
// not by how many there are, and shows the new round's vote.
func TestVoteDialogShowsANewRoundWithAsManyVotes(t *testing.T) {
	fake := &fakeClient{activities: sampleActivities()[:1]} // bob's approval
	h, now := newClockedHarness(t, fake)
	a := h.activities()
	h.key("a")
	if !h.voteDialogOpen() {
		t.Fatalf("no dialog:\n%s", h.frame())
	}
	// 25 hours on: bob's round ended and carol's rejection started a new one.
	*now = testNow.Add(25 * time.Hour)
	fake.mu.Lock()
	fake.activities[0].Votes = []api.Vote{{ID: "v-carol", UserID: "u-carol", User: api.User{UserName: "carol"},
		Selection: api.VoteRejected, CreatedAt: api.NewTime(now.Add(-time.Minute))}}
	fake.mu.Unlock()
	h.run(a.load())
	body, _ := dialogBody(t, h.frame(), "Approve this activity?")
	text := strings.Join(strings.Fields(strings.Join(body, " ")), " ")
	if !strings.Contains(text, `"carol" rejected`) || strings.Contains(text, `"bob" approved`) {
		t.Errorf("the new round's vote is not shown (as many votes as the old round):\n%s", text)
	}
}

// What the open dialog shows is worked out again at a clock tick only when
// the clock can change it: a policy reads the clock, or the round of the
// votes it shows has ended since it was worked out.
func TestVoteDialogWorksItOutAgainOnlyWhenTheClockCanChangeIt(t *testing.T) {
	c := &Common{}
	act := sampleActivities()[0] // bob's approval, a minute old at testNow
	o := &openVote{shown: act, at: testNow}
	if o.clockMoved(c, testNow.Add(time.Hour)) {
		t.Errorf("no policy reads the clock and bob's round runs: worked out again at every tick")
	}
	if !o.clockMoved(c, testNow.Add(24*time.Hour)) {
		t.Errorf("bob's round ended since the dialog was worked out, and it is not worked out again")
	}
	o.at = testNow.Add(24 * time.Hour) // worked out again: no votes count
	if o.clockMoved(c, testNow.Add(25*time.Hour)) {
		t.Errorf("worked out again after the round ended, and again at the next tick")
	}
	c.Org.Eval = newEvaluationContext(nil, api.Quorum{}, []api.Policy{{PolicyID: "p-hours", PolicyName: "office hours",
		Effect: api.EffectAllow, Condition: "true", Time: "CronSpan('0 9 * * 1-5', '8h', 'Europe/Paris')"}})
	if !o.clockMoved(c, testNow.Add(25*time.Hour)) {
		t.Errorf("a policy reads the clock, and the dialog is not worked out again")
	}
}
