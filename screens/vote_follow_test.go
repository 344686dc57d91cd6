package screens

import (
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// othersVote records another member's vote on act-policy in the fake, as the
// service would while the dialog is open; status is the activity's after it.
func othersVote(fake *fakeClient, name, selection, status string) {
	fake.mu.Lock()
	defer fake.mu.Unlock()
	act := fake.activities[0]
	act.Votes = append(append([]api.Vote(nil), act.Votes...), api.Vote{ID: "v-" + name, UserID: "u-" + name,
		User: api.User{UserName: name}, Selection: selection, CreatedAt: api.NewTime(testNow)})
	act.Status, act.UpdatedAt = status, api.NewTime(testNow)
	if status != api.StatusConsensusNeeded {
		act.CanApprove, act.CanReject = false, false
	}
	fake.activities[0] = act
}

// The open vote dialog shows the votes and the "if you reject" of the
// activity as it is now: another member's rejection, seen by the open
// detail's refresh, makes this rejection final, and the dialog says so. A y
// typed for the old text does not reject: the next y only acknowledges the
// change, the one after it votes.
func TestVoteDialogFollowsAnotherMembersVote(t *testing.T) {
	fake := &fakeClient{activities: sampleActivities()}
	h := newHarness(t, fake, false, 0)
	a := h.activities()
	h.key("enter") // act-policy, bob's
	h.key("x")
	if before := h.frame(); !h.voteDialogOpen() || !strings.Contains(before, "it stays pending") {
		t.Fatalf("setup: no dialog saying the rejection leaves it pending:\n%s", before)
	}
	othersVote(fake, "carol", api.VoteRejected, api.StatusConsensusNeeded)
	h.run(a.detail.loadRecord(a.c))
	after := h.frame()
	if strings.Contains(after, "it stays pending") || !strings.Contains(after, "it is REJECTED") {
		t.Errorf("the dialog does not say that this rejection now ends it:\n%s", after)
	}
	if !strings.Contains(after, `"carol" rejected`) {
		t.Errorf("the dialog does not show carol's rejection:\n%s", after)
	}
	if !strings.Contains(after, "changed while open") {
		t.Errorf("the dialog does not say it changed:\n%s", after)
	}
	h.key("y")
	if len(fake.rejections) != 0 || !h.voteDialogOpen() {
		t.Fatalf("the y typed after the change voted on it unread (rejections %q)", fake.rejections)
	}
	h.key("y")
	if len(fake.rejections) != 1 || h.voteDialogOpen() {
		t.Errorf("the y after the acknowledgement did not vote (rejections %q)", fake.rejections)
	}
}

// A vote dialog whose activity settles while it is open (seen by a refresh
// of the list) closes with a notice: nothing was sent, and nothing can be.
func TestVoteDialogClosesWhenItsActivitySettles(t *testing.T) {
	fake := &fakeClient{activities: sampleActivities()}
	h := newHarness(t, fake, false, 0)
	a := h.activities()
	h.key("a") // act-policy
	if !h.voteDialogOpen() {
		t.Fatal("no dialog")
	}
	othersVote(fake, "carol", api.VoteApproved, api.StatusCompleted)
	before := len(h.msgs)
	h.run(a.load())
	if h.voteDialogOpen() {
		t.Fatalf("the dialog stays open on an activity that completed:\n%s", h.frame())
	}
	if !toasted(h.msgs[before:], "nothing was sent") || !toasted(h.msgs[before:], "completed") {
		t.Errorf("no notice says the dialog closed and why: %v", h.msgs[before:])
	}
	h.key("y")
	if len(fake.approvals) != 0 {
		t.Errorf("a vote was sent on the settled activity: %q", fake.approvals)
	}
}

// A refresh that changes nothing the dialog shows leaves it as it is: y
// votes at once.
func TestVoteDialogUnchangedByAnIdleRefresh(t *testing.T) {
	fake := &fakeClient{activities: sampleActivities()}
	h := newHarness(t, fake, false, 0)
	a := h.activities()
	h.key("a")
	h.run(a.load())
	if strings.Contains(h.frame(), "changed while open") {
		t.Errorf("an idle refresh marked the dialog as changed:\n%s", h.frame())
	}
	h.key("y")
	if len(fake.approvals) != 1 {
		t.Errorf("y did not vote after an idle refresh: %q", fake.approvals)
	}
}

// A dialog already answered No says nothing when its activity changes later.
func TestVoteDialogClosedBeforeTheChangeSaysNothing(t *testing.T) {
	fake := &fakeClient{activities: sampleActivities()}
	h := newHarness(t, fake, false, 0)
	a := h.activities()
	h.key("a")
	h.key("esc")
	othersVote(fake, "carol", api.VoteApproved, api.StatusCompleted)
	before := len(h.msgs)
	h.run(a.load())
	if toasted(h.msgs[before:], "nothing was sent") {
		t.Errorf("a notice about a vote dialog that was no longer open: %v", h.msgs[before:])
	}
}

// What a vote would do changes with the clock alone when a policy has a time
// window: the open dialog works it out again at the clock's tick, says it
// changed, and the y typed for the old text only acknowledges it.
func TestVoteDialogFollowsAPolicysTimeWindow(t *testing.T) {
	opens := testNow.Add(30 * time.Second).UTC().Format(time.RFC3339)
	fake := &fakeClient{
		users: []api.User{{UserID: "u-alice", UserName: "alice"}, {UserID: "u-bob", UserName: "bob"},
			{UserID: "u-carol", UserName: "carol"}, {UserID: "u-op", UserName: "op"}},
		policies: []api.Policy{{PolicyID: "pol-tags", PolicyName: "tags by two, from 12:00:30", Effect: api.EffectAllow,
			Condition: "activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG'", Consensus: "approvers.count() >= 2",
			Time: "time.now >= Timestamp('" + opens + "')"}},
		activities: []api.Activity{pendingActivity("act-tag", "op", time.Minute,
			api.Intent{CreateUserTagIntent: &api.CreateUserTagParams{UserTagName: "ops", UserIDs: []string{}}}, api.TypeCreateUserTag)},
	}
	h, now := newClockedHarness(t, fake)
	h.key("a")
	text := func() string {
		body, _ := dialogBody(t, h.frame(), "Approve this activity?")
		return strings.Join(strings.Fields(strings.Join(body, " ")), " ")
	}
	if before := text(); !strings.Contains(before, "if you approve: it still waits") {
		t.Fatalf("set-up: before the policy's window the approval leaves it waiting:\n%s", before)
	}
	h.send(clockMsg{})
	if strings.Contains(text(), "changed while open") {
		t.Fatalf("a tick that changes nothing marked the dialog as changed:\n%s", text())
	}
	*now = testNow.Add(time.Minute)
	h.send(clockMsg{})
	after := text()
	if strings.Contains(after, "it still waits") || !strings.Contains(after, "runs now") {
		t.Errorf("inside the policy's window the dialog still shows the old outcome:\n%s", after)
	}
	if !strings.Contains(after, "changed while open") {
		t.Errorf("the dialog does not say what it shows changed:\n%s", after)
	}
	h.key("y")
	if len(fake.approvals) != 0 {
		t.Errorf("the y typed for the old outcome voted: %q", fake.approvals)
	}
	h.key("y")
	if len(fake.approvals) != 1 {
		t.Errorf("the y after reading the new outcome did not vote: %q", fake.approvals)
	}
}
