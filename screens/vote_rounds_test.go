package screens

import (
	"fmt"
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
	c.Org.Eval = newEvaluationContext(nil, nil, api.OrganizationConfigs{}, []api.Policy{{PolicyID: "p-hours", PolicyName: "office hours",
		Effect: api.EffectAllow, Condition: "true", Time: "CronSpan('0 9 * * 1-5', '8h', 'Europe/Paris')"}})
	if !o.clockMoved(c, testNow.Add(25*time.Hour)) {
		t.Errorf("a policy reads the clock, and the dialog is not worked out again")
	}
}

// The console's clock is 10 minutes behind the service's. Bob's approval (at
// T) ended its round at service time T+24h, and carol's rejection at
// T+24h+1m started a new round. At console time T+24h-9m, bob's vote still
// counts by the console's clock alone: the service's copies must still win,
// or the list, the detail and the vote dialog keep bob's ended approval and
// leave out carol's rejection.
func TestServiceCopyWinsWhenTheConsoleClockIsBehind(t *testing.T) {
	T := testNow
	bob := api.Vote{ID: "v-bob", UserID: "u-bob", Selection: api.VoteApproved, CreatedAt: api.NewTime(T)}
	carol := api.Vote{ID: "v-carol", UserID: "u-carol", Selection: api.VoteRejected, CreatedAt: api.NewTime(T.Add(24*time.Hour + time.Minute))}
	now := T.Add(24*time.Hour - 9*time.Minute)
	pending := func(updated time.Time, votes ...api.Vote) api.Activity {
		return api.Activity{ID: "act", Status: api.StatusConsensusNeeded, Votes: votes, UpdatedAt: api.NewTime(updated)}
	}
	for _, c := range []struct {
		name, why   string
		held, fresh api.Activity
	}{
		{"new round, later updatedAt", "carol's copy has the later updatedAt",
			pending(T, bob), pending(T.Add(24*time.Hour+time.Minute), carol)},
		{"new round, same updatedAt", "carol's vote was cast after bob's round ended by the service's time",
			pending(T.Add(-time.Hour), bob), pending(T.Add(-time.Hour), carol)},
		{"round ended, updatedAt at bob's vote", "the service sent it after bob's vote, without it: dropped",
			pending(T, bob), pending(T)},
	} {
		if olderCopy(c.fresh, c.held, now) {
			t.Errorf("%s: the service's copy %v is taken for older than the held %v (%s): it is dropped", c.name, c.fresh.Votes, c.held.Votes, c.why)
		}
		if !olderCopy(c.held, c.fresh, now) {
			t.Errorf("%s: the held copy with bob's ended vote is not older than the service's copy %v: which one is kept depends on the order they are seen", c.name, c.fresh.Votes)
		}
	}
}

// olderCopy is never true both ways: newestCopy and keepFresher would
// otherwise keep whichever copy they meet first. Checked over copies that
// differ in status, updatedAt and votes, at clocks before, at and after the
// end of a round.
func TestOlderCopyIsNeverTrueBothWays(t *testing.T) {
	T := testNow
	vote := func(id string, at time.Time) api.Vote {
		return api.Vote{ID: id, UserID: "u-" + id, Selection: api.VoteApproved, CreatedAt: api.NewTime(at)}
	}
	votes := [][]api.Vote{nil,
		{vote("a", T)}, {vote("b", T.Add(time.Hour))}, {vote("a", T), vote("b", T.Add(time.Hour))},
		{vote("c", T.Add(25*time.Hour))}, {vote("a", T), vote("c", T.Add(25*time.Hour))},
		{{ID: "d", UserID: "u-d", Selection: api.VoteRejected}}}
	var copies []api.Activity
	for _, status := range []string{api.StatusConsensusNeeded, api.StatusCompleted, api.StatusRejected} {
		for _, updated := range []api.Time{{}, api.NewTime(T.Add(-time.Hour)), api.NewTime(T), api.NewTime(T.Add(25 * time.Hour))} {
			for _, v := range votes {
				copies = append(copies, api.Activity{ID: "act", Status: status, Votes: v, UpdatedAt: updated})
			}
		}
	}
	for _, now := range []time.Time{T.Add(-time.Minute), T.Add(time.Hour), T.Add(24 * time.Hour), T.Add(50 * time.Hour)} {
		for i, x := range copies {
			for _, y := range copies[i:] {
				if olderCopy(x, y, now) && olderCopy(y, x, now) {
					t.Fatalf("at T%+v each copy is older than the other:\n%s\n%s", now.Sub(T), copyText(x, T), copyText(y, T))
				}
			}
		}
	}
}

// copyText names what olderCopy reads of a copy, times relative to T.
func copyText(act api.Activity, T time.Time) string {
	at := func(t api.Time) string {
		if t.IsZero() {
			return "?"
		}
		return fmt.Sprintf("T%+v", t.Time().Sub(T))
	}
	var votes []string
	for _, v := range act.Votes {
		votes = append(votes, v.ID+"@"+at(v.CreatedAt))
	}
	return fmt.Sprintf("%s updatedAt %s votes [%s]", act.Status, at(act.UpdatedAt), strings.Join(votes, " "))
}
