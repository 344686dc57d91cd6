package screens

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// voteAfterList is a Reader that, once armed, lets hook run (another
// member's vote) right after a list of activities is read: the evaluations
// the Policies screen reads next are newer than its copy of the activity.
type voteAfterList struct {
	*api.Client
	mu   sync.Mutex
	hook func()
}

func (r *voteAfterList) ListActivities(ctx context.Context, o api.ListActivitiesOptions) ([]api.Activity, error) {
	out, err := r.Client.ListActivities(ctx, o)
	r.mu.Lock()
	h := r.hook
	r.hook = nil
	r.mu.Unlock()
	if h != nil {
		h()
	}
	return out, err
}

// The Policies screen's recent evaluations read the list of activities,
// then each one's evaluations. bob approves between the two reads (a vote
// of the CURRENT round, returned by the service): the last evaluation's vote
// (the deciding one: the activity completes) is not in the list's copy. It
// must not be said to be "of an earlier 24-hour round, whose votes the
// service no longer returns": the activity is read again, and shown as it
// is now.
func TestRecentEvaluationOfVoteAfterListNotCalledEarlierRound(t *testing.T) {
	d := servertest.StartDemo(t)
	act := proposeTag(t, d, "vote-after-list")
	r := &voteAfterList{Client: d.Client("carol")}
	h := newHarnessWith(t, r, d.Client("carol"), theme.Options{Dark: true, NoColor: true}, 0)
	h.gotoScreen("Policies")
	r.mu.Lock()
	r.hook = func() {
		if _, err := d.Client("bob").ApproveActivity(context.Background(), act.Fingerprint); err != nil {
			t.Error(err)
		}
	}
	r.mu.Unlock()
	p := h.policies()
	h.run(p.wantRecent())
	got, err := d.Client("carol").GetActivity(context.Background(), act.ID)
	if err != nil || got.VoteOf(d.Info.Members[1].UserID) == nil {
		t.Fatalf("set-up: bob's vote is not in the current round: %+v %v", got, err)
	}
	for _, ra := range p.data.recent {
		if ra.act.ID != act.ID {
			continue
		}
		if ra.last == nil {
			t.Fatalf("no explanation of the last evaluation")
		}
		t.Logf("last evaluation explained as %q: %q", ra.last.Outcome, ra.last.Why)
		if strings.Contains(ra.last.Why, policy.ErrVoteNotReturned.Error()) || ra.last.Outcome == "" {
			t.Errorf("bob's approval, of the current round (the service returns it: %d votes), is explained as %q: %q", len(got.Votes), ra.last.Outcome, ra.last.Why)
		}
		if ra.act.Status != got.Status {
			t.Errorf("the activity is shown as %s, though the evaluation shown is of the vote that made it %s", ra.act.Status, got.Status)
		}
		return
	}
	t.Fatalf("the activity is not among the recent ones")
}
