package screens

import (
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// The console's clock is 10 minutes behind the service's, and the service's
// copy shows no time after the end of the round whose votes it dropped (a
// vote that does not settle an activity leaves updatedAt alone). The copy
// read after the held one arrived is still the newer one: the list, the
// detail and the vote dialog must not keep an ended round's votes.
func TestCopyReadLaterWinsOverEndedVotesWithTheClockBehind(t *testing.T) {
	T := testNow
	approval := func(id string, at time.Time) api.Vote {
		return api.Vote{ID: "v-" + id, UserID: "u-" + id, Selection: api.VoteApproved, CreatedAt: api.NewTime(at)}
	}
	pending := func(votes ...api.Vote) api.Activity {
		return api.Activity{ID: "act", Status: api.StatusConsensusNeeded, Votes: votes, UpdatedAt: api.NewTime(T)}
	}
	held, later := copyOrder{sent: 1, arrived: 2}, copyOrder{sent: 3, arrived: 4}
	for _, c := range []struct {
		name string
		held api.Activity
		now  time.Time // the console's: the round ended 10 minutes earlier by the service's
	}{
		// The requester's vote at creation, alice's an hour later, in one round.
		{"two votes in the first round", pending(approval("bob", T), approval("alice", T.Add(time.Hour))), T.Add(24*time.Hour - 9*time.Minute)},
		// Carol's approval started a second round after bob's ended.
		{"a vote of the second round", pending(approval("carol", T.Add(30*time.Hour))), T.Add(54*time.Hour - 9*time.Minute)},
	} {
		fresh := pending()
		if olderOrdered(fresh, later, c.held, held, c.now) {
			t.Errorf("%s: the service's copy read after the held one arrived is taken for older: the ended votes are kept: %s", c.name, copyText(c.held, T))
		}
		if !olderOrdered(c.held, held, fresh, later, c.now) {
			t.Errorf("%s: the held copy %s is not older than the copy read after it arrived", c.name, copyText(c.held, T))
		}
	}
}

// Only copies whose requests overlapped are compared by what they show: a
// list sent before your vote and answered after it does not undo the vote.
func TestOverlappingCopiesAreComparedByWhatTheyShow(t *testing.T) {
	T := testNow
	before := api.Activity{ID: "act", Status: api.StatusConsensusNeeded, UpdatedAt: api.NewTime(T)}
	voted := before
	voted.Votes = []api.Vote{{ID: "v-alice", UserID: "u-alice", Selection: api.VoteApproved, CreatedAt: api.NewTime(T.Add(time.Minute))}}
	list, vote := copyOrder{sent: 1, arrived: 4}, copyOrder{sent: 2, arrived: 3}
	if !olderOrdered(before, list, voted, vote, T.Add(2*time.Minute)) {
		t.Errorf("a list sent before the vote and answered after it replaces the vote's reply: the vote looks undone")
	}
	if olderOrdered(voted, vote, before, list, T.Add(2*time.Minute)) {
		t.Errorf("the vote's reply is taken for older than a list sent before the vote")
	}
}

// olderOrdered is never true both ways, over copies whose requests follow,
// overlap, or are not known, and whatever they show.
func TestOlderOrderedIsNeverTrueBothWays(t *testing.T) {
	T := testNow
	orders := []copyOrder{{}, {1, 2}, {1, 4}, {2, 3}, {3, 5}, {5, 6}}
	var copies []api.Activity
	for _, status := range []string{api.StatusConsensusNeeded, api.StatusCompleted} {
		for _, updated := range []api.Time{{}, api.NewTime(T), api.NewTime(T.Add(time.Hour))} {
			for _, votes := range [][]api.Vote{nil, {{ID: "v-a", UserID: "u-a", Selection: api.VoteApproved, CreatedAt: api.NewTime(T.Add(time.Minute))}}} {
				copies = append(copies, api.Activity{ID: "act", Status: status, Votes: votes, UpdatedAt: updated})
			}
		}
	}
	for _, now := range []time.Time{T, T.Add(25 * time.Hour)} {
		for _, x := range copies {
			for _, xo := range orders {
				for _, y := range copies {
					for _, yo := range orders {
						if olderOrdered(x, xo, y, yo, now) && olderOrdered(y, yo, x, xo, now) {
							t.Fatalf("each copy is older than the other:\n%s %v\n%s %v", copyText(x, T), xo, copyText(y, T), yo)
						}
					}
				}
			}
		}
	}
}

// The same through the screen: bob's approval at creation and carol's a
// minute later ended their round; the service's copy, read at service time
// T+24h-4m by a console whose clock is 10 minutes behind, has no votes and
// the same updatedAt. The list, the open detail and the vote dialog show it.
func TestScreenDropsEndedVotesWithTheClockBehind(t *testing.T) {
	acts := sampleActivities()[:1] // act-policy: bob's approval at T-5m, its updatedAt
	acts[0].Votes = append(acts[0].Votes, api.Vote{ID: "v-carol", UserID: "u-carol", User: api.User{UserName: "carol"},
		ActivityID: acts[0].ID, Selection: api.VoteApproved, CreatedAt: api.NewTime(testNow.Add(-4 * time.Minute))})
	fake := &fakeClient{activities: acts}
	h, now := newClockedHarness(t, fake)
	a := h.activities()
	h.key("enter")
	h.key("a")
	text := func() string {
		body, _ := dialogBody(t, h.frame(), "Approve this activity?")
		return strings.Join(strings.Fields(strings.Join(body, " ")), " ")
	}
	if before := text(); !strings.Contains(before, `"carol" approved`) {
		t.Fatalf("set-up: the dialog shows carol's approval:\n%s", before)
	}
	*now = testNow.Add(24*time.Hour - 14*time.Minute)
	fake.mu.Lock()
	fake.activities[0].Votes = nil
	fake.mu.Unlock()
	h.run(a.load())
	h.run(a.detail.loadRecord(a.c))
	h.send(clockMsg{})
	if after := text(); strings.Contains(after, `"carol" approved`) || strings.Contains(after, `"bob" approved`) {
		t.Errorf("the service's copy read after the round ended has no votes, but the dialog still shows them:\n%s", after)
	}
	if n := len(a.items[0].Votes); n != 0 {
		t.Errorf("the list still holds %d ended vote(s)", n)
	}
	if n := len(a.detail.activity.Votes); n != 0 {
		t.Errorf("the open detail still holds %d ended vote(s)", n)
	}
}

// An activity handed over by another screen (ShowActivityMsg: `open
// activity`, a jump from Messages or Policies) was read before the handover:
// records the detail and the list ask for after it are newer outright. With
// the console's clock behind the service's, comparing by content alone kept
// the handed-over copy's ended votes in the list, the detail and the vote
// dialog's prediction.
func TestHandedOverCopyGivesWayToRecordsReadAfterIt(t *testing.T) {
	acts := sampleActivities()[:1]
	acts[0].Votes = append(acts[0].Votes, api.Vote{ID: "v-carol", UserID: "u-carol", User: api.User{UserName: "carol"},
		ActivityID: acts[0].ID, Selection: api.VoteApproved, CreatedAt: api.NewTime(testNow.Add(-4 * time.Minute))})
	fake := &fakeClient{activities: acts}
	h, now := newClockedHarness(t, fake)
	a := h.activities()
	handed := acts[0]
	handed.Votes = append([]api.Vote(nil), acts[0].Votes...)
	// The round ends on the service (its clock 10 minutes ahead of the
	// console's) before the copy handed over is first read again.
	*now = testNow.Add(24*time.Hour - 14*time.Minute)
	fake.mu.Lock()
	fake.activities[0].Votes = nil
	fake.mu.Unlock()
	h.send(ShowActivityMsg{ID: handed.ID, Activity: &handed})
	if a.detail == nil {
		t.Fatal("set-up: the detail is not open")
	}
	h.run(a.load())
	h.run(a.detail.loadRecord(a.c))
	h.run(a.detail.loadRecord(a.c))
	if n := len(a.items[0].Votes); n != 0 {
		t.Errorf("the list still holds %d ended vote(s)", n)
	}
	if n := len(a.detail.activity.Votes); n != 0 {
		t.Errorf("the open detail still holds %d ended vote(s) after two fresh reads of the record sent after the handover (order %+v)", n, a.detail.order)
	}
	h.key("a")
	body, _ := dialogBody(t, h.frame(), "Approve this activity?")
	if text := strings.Join(strings.Fields(strings.Join(body, " ")), " "); strings.Contains(text, `"carol" approved`) {
		t.Errorf("the vote dialog restates carol's ended approval:\n%s", text)
	}
}
