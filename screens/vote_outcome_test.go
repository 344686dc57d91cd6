package screens

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui"
	"github.com/vigil-console/vigil/ui/theme"
)

// lostReplyVote records the vote, then loses the reply (a gateway's 504).
type lostReplyVote struct{ *fakeClient }

func (l *lostReplyVote) ApproveActivity(ctx context.Context, fp string, opts ...api.SubmitOption) (*api.Activity, error) {
	if _, err := l.fakeClient.ApproveActivity(ctx, fp, opts...); err != nil {
		return nil, err
	}
	return nil, &api.OutcomeUnknownError{Operation: "submit/approve_activity", Err: context.DeadlineExceeded}
}

// unreachableAfterVote times out on the approve (the request left; the
// service may have recorded it) and on every read of the activity until the
// service is back.
type unreachableAfterVote struct {
	*fakeClient
	down bool
}

func (d *unreachableAfterVote) ApproveActivity(ctx context.Context, fp string, opts ...api.SubmitOption) (*api.Activity, error) {
	d.down = true
	return nil, &api.OutcomeUnknownError{Operation: "submit/approve_activity", Err: context.DeadlineExceeded}
}

func (d *unreachableAfterVote) GetActivity(ctx context.Context, id string) (*api.Activity, error) {
	if d.down {
		return nil, context.DeadlineExceeded
	}
	return d.fakeClient.GetActivity(ctx, id)
}

// toastsOf are the texts of the toasts among msgs.
func toastsOf(h *harness) []string {
	var out []string
	for _, m := range h.msgs {
		if tm, ok := m.(ui.ToastMsg); ok {
			out = append(out, tm.Text)
		}
	}
	return out
}

// logged are the messages view's entries, in order.
func logged(h *harness) []string {
	var out []string
	for _, e := range h.root.log.entries {
		out = append(out, e.text)
	}
	return out
}

// A vote whose reply was lost but which the activity, read again, shows as
// counted is recorded in the messages view as counted, as its toast said:
// the record outlives the toast, and it must not say "not counted" of the
// vote that settled the activity.
func TestVoteCountedDespiteLostReplyIsRecordedAsCounted(t *testing.T) {
	fake := &lostReplyVote{&fakeClient{activities: sampleActivities()}}
	h := newHarnessFor(t, fake, theme.Options{Dark: true, NoColor: true}, 0)
	h.key("a")
	h.key("y")
	toasts, log := toastsOf(h), logged(h)
	if len(toasts) != 1 || !strings.Contains(toasts[0], "shows your vote") {
		t.Fatalf("toasts = %q, want the one saying the vote counted", toasts)
	}
	if len(log) != 1 || !strings.Contains(log[0], "shows your vote") || !strings.Contains(log[0], "act-policy") {
		t.Errorf("messages view = %q, want one entry saying the vote on act-policy counted", log)
	}
	for _, e := range log {
		if strings.Contains(e, "not counted") || strings.Contains(e, "failed:") {
			t.Errorf("the messages view contradicts the toast: %q", e)
		}
	}
}

// Every outcome of a vote is told in the toast and recorded in the messages
// view with the same claim: counted or not, failed or not, known or not.
func TestVoteToastAndRecordAgreeOnEveryOutcome(t *testing.T) {
	timedOut := &api.OutcomeUnknownError{Operation: "submit/approve_activity", Err: context.DeadlineExceeded}
	pending := sampleActivities()[0] // act-policy, bob's request
	withMine := func(sel, status string) *api.Activity {
		act := pending
		act.Votes = append(append([]api.Vote(nil), act.Votes...), api.Vote{ID: "v-me", UserID: "u-alice", Selection: sel, CreatedAt: api.NewTime(testNow)})
		act.Status = status
		return &act
	}
	settled := pending
	settled.Status = api.StatusRejected
	settled.Votes = append(append([]api.Vote(nil), settled.Votes...), api.Vote{ID: "v-carol", UserID: "u-carol", User: api.User{UserName: "carol"}, Selection: api.VoteRejected, CreatedAt: api.NewTime(testNow)})
	done := *withMine(api.VoteApproved, api.StatusCompleted)
	cases := []struct {
		name string
		msg  activityVotedMsg
		want voteOutcome
	}{
		{"counted", activityVotedMsg{voter: api.Voter{UserID: "u-alice"}, before: &pending, activity: &done}, voteCounted},
		{"counted, reply lost", activityVotedMsg{voter: api.Voter{UserID: "u-alice"}, before: &pending, err: timedOut, current: withMine(api.VoteApproved, api.StatusCompleted)}, voteCountedAnyway},
		{"counted, still pending", activityVotedMsg{voter: api.Voter{UserID: "u-alice"}, before: &pending, err: timedOut, current: withMine(api.VoteApproved, api.StatusConsensusNeeded)}, voteCountedAnyway},
		{"voted the other way before", activityVotedMsg{voter: api.Voter{UserID: "u-alice"}, before: &pending, err: errors.New("already voted"), current: withMine(api.VoteRejected, api.StatusConsensusNeeded)}, voteAlreadyCast},
		{"settled before", activityVotedMsg{voter: api.Voter{UserID: "u-alice"}, before: &pending, err: errors.New("not pending"), current: &settled}, voteTooLate},
		{"not recorded", activityVotedMsg{voter: api.Voter{UserID: "u-alice"}, before: &pending, err: timedOut, current: &pending}, voteNotRecorded},
		{"unknown", activityVotedMsg{voter: api.Voter{UserID: "u-alice"}, before: &pending, err: timedOut}, voteUnknown},
		// Who votes could not be read, or the read before the vote already
		// shows the vote of the user whoami names: never "not counted".
		{"voter unknown, settled", activityVotedMsg{before: &pending, err: timedOut, current: &settled}, voteVoterUnsure},
		{"voter unknown, pending", activityVotedMsg{before: &pending, err: timedOut, current: &pending}, voteVoterUnsure},
		{"whoami names a voter already there", activityVotedMsg{voter: api.Voter{UserID: "u-carol"}, before: &settled, err: timedOut, current: &settled}, voteVoterUnsure},
		{"refused", activityVotedMsg{voter: api.Voter{UserID: "u-alice"}, before: &pending, err: errors.New("permission denied")}, voteFailed},
	}
	claims := []string{"not counted", "failed", "unknown", "shows your vote", "vote again"}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 0)
			tc.msg.id, tc.msg.approve = pending.ID, true
			if got := voteOutcomeOf(h.root.common, tc.msg); got != tc.want {
				t.Fatalf("outcome = %d, want %d", got, tc.want)
			}
			before, toastsBefore := len(h.root.log.entries), len(toastsOf(h))
			h.send(tc.msg)
			log, toasts := logged(h)[before:], toastsOf(h)[toastsBefore:]
			if len(log) != 1 || len(toasts) != 1 {
				t.Fatalf("want one entry and one toast of the vote; log %q, toasts %q", log, toasts)
			}
			for _, claim := range claims {
				if strings.Contains(log[0], claim) != strings.Contains(toasts[0], claim) {
					t.Errorf("toast and record disagree on %q:\ntoast:  %s\nrecord: %s", claim, toasts[0], log[0])
				}
			}
			if !strings.Contains(log[0], pending.ID) {
				t.Errorf("the record does not name the activity: %q", log[0])
			}
		})
	}
}

// A vote that timed out, when the activity cannot be read again either, may
// have been recorded: it is never reported as failed with "retry" (docs:
// not reported as failed). It says the outcome is unknown and how to find
// out, and keeps saying so until a read of the activity tells, which r does.
func TestVoteOfUnknownOutcomeIsNotReportedAsFailed(t *testing.T) {
	fake := &unreachableAfterVote{fakeClient: &fakeClient{activities: sampleActivities()}}
	h := newHarnessFor(t, fake, theme.Options{Dark: true, NoColor: true}, 0)
	a := h.activities()
	h.key("a")
	h.key("y")
	told := append(toastsOf(h), logged(h)...)
	told = append(told, a.voteErr)
	for _, s := range told {
		if strings.Contains(s, "failed:") || strings.Contains(s, "retry") {
			t.Errorf("a vote whose outcome is unknown is reported as failed: %q", s)
		}
		if !strings.Contains(s, "outcome unknown") || !strings.Contains(s, "vigil activity get act-policy") {
			t.Errorf("does not say the outcome is unknown and how to check: %q", s)
		}
	}
	// A list load that does not read the activity does not clear it.
	h.send(activitiesLoadedMsg{gen: a.listGen, items: sampleActivities()[1:], at: testNow})
	if !strings.Contains(a.voteErr, "outcome unknown") {
		t.Errorf("a list load cleared the unknown outcome: %q", a.voteErr)
	}
	// The service is back: r reads the activity, which does not show the vote.
	fake.down = false
	before := len(h.root.log.entries)
	h.key("r")
	if a.unsure != nil || strings.Contains(a.voteErr, "outcome unknown") {
		t.Errorf("a read of the activity did not settle the outcome: %q", a.voteErr)
	}
	if got := strings.Join(logged(h)[before:], "\n"); !strings.Contains(got, "does not show your vote") {
		t.Errorf("after r the messages say %q, want that the vote is not there", got)
	}
}

// The messages view logs the vote's own notice once, and every other notice
// too, whichever arrives first (commands run concurrently).
func TestVoteToastDoesNotSwallowAnotherNotice(t *testing.T) {
	fake := &fakeClient{activities: sampleActivities()}
	h := newHarness(t, fake, false, 0)
	act := h.activities().items[0]
	res, err := fake.ApproveActivity(context.Background(), act.Fingerprint)
	if err != nil {
		t.Fatal(err)
	}
	_, cmd := h.root.Update(activityVotedMsg{id: act.ID, approve: true, activity: res})
	h.send(ui.ToastMsg{Text: "new: delete 1 API key of bob — waits for your vote"})
	h.run(cmd)
	log := logged(h)
	votes, notices := 0, 0
	for _, e := range log {
		if strings.Contains(e, "approved "+act.ID) {
			votes++
		}
		if strings.Contains(e, "waits for your vote") {
			notices++
		}
	}
	if votes != 1 || notices != 1 {
		t.Errorf("want the vote and the other notice once each; messages view: %q", log)
	}
}
