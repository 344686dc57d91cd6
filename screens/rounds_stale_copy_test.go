package screens

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// clockedDemo starts the local service on a clock the test moves (offset,
// added to this machine's: 25 h on, a 24-hour round has ended); client is
// a member's client on that clock.
func clockedDemo(t *testing.T) (d *servertest.Demo, offset *atomic.Int64, client func(name string) *api.Client) {
	t.Helper()
	offset = new(atomic.Int64)
	clock := func() time.Time { return time.Now().Add(time.Duration(offset.Load())) }
	d = servertest.StartDemoOn(t, clock)
	return d, offset, func(name string) *api.Client { return d.ClientAt(d.URL, name, api.WithClock(clock)) }
}

// recentRaceOf runs the Policies screen's recent load through r, whose hook
// (bob's vote) runs right after the list of activities is read, and returns
// the recent entry of id.
func recentRaceOf(t *testing.T, r *voteAfterList, sub Submitter, id string, hook func()) recentActivity {
	t.Helper()
	h := newHarnessWith(t, r, sub, theme.Options{Dark: true, NoColor: true}, 0)
	h.gotoScreen("Policies")
	r.mu.Lock()
	r.hook = hook
	r.mu.Unlock()
	p := h.policies()
	h.run(p.wantRecent())
	for _, ra := range p.data.recent {
		if ra.act.ID == id {
			return ra
		}
	}
	t.Fatalf("the activity is not among the recent ones")
	return recentActivity{}
}

// The activity's first round ended (alice's approval expired: the service
// returns no vote, it keeps waiting). The Policies screen reads the list (no
// votes, waiting), then bob approves (the first vote of the current round,
// which the service returns), then the evaluations are read. "Waiting with no
// votes" in the list's copy proves nothing: the activity is read again, and
// bob's approval is explained as the current round's, as the CLI does.
func TestVoteAfterListOnExpiredRoundNotCalledEarlierRound(t *testing.T) {
	d, offset, client := clockedDemo(t)
	ctx := context.Background()
	act, err := client("alice").CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "expired-then-bob", UserIDs: []string{}})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("propose: %+v %v", act, err)
	}
	offset.Store(int64(25 * time.Hour)) // alice's round has ended
	r := &voteAfterList{Client: client("carol")}
	ra := recentRaceOf(t, r, client("carol"), act.ID, func() {
		if _, err := client("bob").ApproveActivity(ctx, act.Fingerprint); err != nil {
			t.Error(err)
		}
	})
	got, err := client("carol").GetActivity(ctx, act.ID)
	if err != nil || got.VoteOf(d.Info.Members[1].UserID) == nil {
		t.Fatalf("set-up: bob's vote is not in the current round: %+v %v", got, err)
	}
	if ra.last == nil {
		t.Fatalf("no explanation of the last evaluation")
	}
	t.Logf("copy shown: %s, %d votes; explained %q: %q (service now: %s, %d votes)", ra.act.Status, len(ra.act.Votes), ra.last.Outcome, ra.last.Why, got.Status, len(got.Votes))
	if strings.Contains(ra.last.Why, policy.ErrVoteNotReturned.Error()) {
		t.Errorf("bob's approval, the first vote of the CURRENT round (returned by the service), is explained as of an earlier round: %q", ra.last.Why)
	}
}

// The service's clock steps back 2 minutes after the list is read; bob's
// approval (completing the activity) is stored with createdAt clamped to
// alice's vote's time, but its evaluation at the real (earlier) now
// (server/engine.go castVote). Times prove nothing then: the activity is read
// again, shown completed, and the deciding approval is not called an earlier
// round's.
func TestClockStepBackNotCalledEarlierRound(t *testing.T) {
	d, offset, client := clockedDemo(t)
	ctx := context.Background()
	act, err := client("alice").CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "clock-back", UserIDs: []string{}})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("propose: %+v %v", act, err)
	}
	r := &voteAfterList{Client: client("carol")}
	ra := recentRaceOf(t, r, client("carol"), act.ID, func() {
		offset.Store(int64(-2 * time.Minute)) // the service's clock steps back (NTP)
		if _, err := client("bob").ApproveActivity(ctx, act.Fingerprint); err != nil {
			t.Error(err)
		}
	})
	got, err := client("carol").GetActivity(ctx, act.ID)
	if err != nil || got.VoteOf(d.Info.Members[1].UserID) == nil {
		t.Fatalf("set-up: bob's vote is not returned: %+v %v", got, err)
	}
	if ra.last == nil {
		t.Fatalf("no explanation of the last evaluation")
	}
	t.Logf("copy shown: %s, %d votes; explained %q: %q (service now: %s, %d votes)", ra.act.Status, len(ra.act.Votes), ra.last.Outcome, ra.last.Why, got.Status, len(got.Votes))
	if strings.Contains(ra.last.Why, policy.ErrVoteNotReturned.Error()) {
		t.Errorf("bob's approval, of the current round (the service returns it), is explained as of an earlier round: %q", ra.last.Why)
	}
	if ra.act.Status != got.Status {
		t.Errorf("the activity is shown as %s; bob's approval made it %s", ra.act.Status, got.Status)
	}
}

// TestPolicyDecidedSkipsRejectionEvaluation a day later: the tag still waits
// after alice's rejection, whose evaluation stored OUTCOME_ALLOW for the
// allow policy. Once the service no longer returns alice's vote (25 h on),
// the stored ALLOW of an activity that still waits decided nothing:
// Policies.decided does not file the tag under the allow policy, and the
// explanation says it still waits.
func TestDecidedSkipsWaitingActivityWhoseVoteIsNotReturned(t *testing.T) {
	_, offset, client := clockedDemo(t)
	ctx := context.Background()
	tag, err := client("operator").CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "decided-waiting-day", UserIDs: []string{}})
	if err != nil || tag.Status != api.StatusConsensusNeeded {
		t.Fatalf("create_user_tag: %+v %v", tag, err)
	}
	pol, err := client("alice").CreatePolicy(ctx, api.CreatePolicyParams{PolicyName: "tags need nobody", Effect: api.EffectAllow,
		Condition: "activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG'"})
	if err != nil {
		t.Fatal(err)
	}
	if pol.Status == api.StatusConsensusNeeded {
		if pol, err = client("bob").ApproveActivity(ctx, pol.Fingerprint); err != nil || pol.Status != api.StatusCompleted {
			t.Fatalf("create_policy: %+v %v", pol, err)
		}
	}
	if after, err := client("alice").RejectActivity(ctx, tag.Fingerprint); err != nil || after.Status != api.StatusConsensusNeeded {
		t.Fatalf("after alice's rejection: %+v %v", after, err)
	}
	offset.Store(int64(25 * time.Hour))
	h := newHarnessWith(t, client("carol"), client("carol"), theme.Options{Dark: true, NoColor: true}, 0)
	h.gotoScreen("Policies")
	p := h.policies()
	h.run(p.wantRecent())
	pols, err := client("alice").ListPolicies(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var polID string
	for _, x := range pols {
		if x.PolicyName == "tags need nobody" {
			polID = x.PolicyID
		}
	}
	for _, ra := range p.data.recent {
		if ra.act.ID == tag.ID && (ra.last == nil || !strings.Contains(ra.last.Why, policy.StillWaits)) {
			t.Errorf("the last evaluation of the tag, still waiting, does not say its stored outcome decided nothing: %+v", ra.last)
		}
	}
	for _, ra := range p.decided(polID) {
		if ra.act.ID == tag.ID {
			t.Errorf("the tag, still %s after alice's rejection (%d votes returned), is listed as decided by the allow policy; shown as %q: %q",
				ra.act.Status, len(ra.act.Votes), ra.last.Outcome, ra.last.Why)
		}
	}
}
