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

// voteAfterRead is a Reader that, once armed, lets hook run (another
// member's vote) right after activity id is read: the evaluations read next
// are newer than that copy.
type voteAfterRead struct {
	*api.Client
	mu   sync.Mutex
	id   string
	hook func()
}

func (r *voteAfterRead) GetActivity(ctx context.Context, id string) (*api.Activity, error) {
	out, err := r.Client.GetActivity(ctx, id)
	r.mu.Lock()
	h := r.hook
	if id == r.id {
		r.hook = nil
	}
	r.mu.Unlock()
	if h != nil && id == r.id {
		h()
	}
	return out, err
}

// The Activities detail reads the record, then its evaluations; bob approves
// between the two reads (a vote of the current round, which the service
// returns). His evaluation's vote is missing from the copy read: the detail
// must read the activity again after the evaluations and not say his vote
// is "not among the votes the service returns now".
func TestActivityDetailVoteBetweenReadsNotCalledNotReturned(t *testing.T) {
	d := servertest.StartDemo(t)
	act := proposeTag(t, d, "vote-after-record")
	r := &voteAfterRead{Client: d.Client("carol"), id: act.ID}
	h := newHarnessWith(t, r, d.Client("carol"), theme.Options{Dark: true, NoColor: true}, 0)
	h.selectActivityID(act.ID)
	var bobVote string
	r.mu.Lock()
	r.hook = func() {
		after, err := d.Client("bob").ApproveActivity(context.Background(), act.Fingerprint)
		if err != nil {
			t.Error(err)
			return
		}
		if v := after.VoteOf(d.Info.Members[1].UserID); v != nil {
			bobVote = v.ID
		}
	}
	r.mu.Unlock()
	h.key("enter")
	det := h.activities().detail
	if det == nil || bobVote == "" {
		t.Fatalf("set-up: detail open %v, bob's vote %q", det != nil, bobVote)
	}
	seen := false
	for _, e := range det.evals {
		ex, ok := det.explained.of(h.root.common.Org.Eval, det.activity, e)
		if !ok {
			t.Fatalf("evaluation of vote %s not explained", e.VoteID)
		}
		seen = seen || e.VoteID == bobVote
		if strings.Contains(ex.Why, policy.ErrVoteNotReturned.Error()) {
			t.Errorf("the evaluation of vote %s (bob's: %v), cast in the current round, is explained as %q", e.VoteID, e.VoteID == bobVote, ex.Why)
		}
	}
	if !seen {
		t.Fatalf("set-up: bob's evaluation is not among those shown: %+v", det.evals)
	}
	if strings.Contains(h.frame(), "not among the votes") {
		t.Errorf("the detail says a vote is not returned:\n%s", h.frame())
	}
}
