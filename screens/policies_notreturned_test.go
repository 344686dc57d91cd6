package screens

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
	"github.com/vigil-console/vigil/ui/theme"
)

// activityReads is a Reader that counts get_activity requests.
type activityReads struct {
	*api.Client
	n atomic.Int64
}

func (r *activityReads) GetActivity(ctx context.Context, id string) (*api.Activity, error) {
	r.n.Add(1)
	return r.Client.GetActivity(ctx, id)
}

// The round of alice's approval ended (25 h on): the service no longer
// returns her vote, and the tag waits. The Policies screen's first recent
// load reads the tag again after its evaluations (a vote may have landed
// between), and that read does not hold her vote either. Votes do not come
// back: a reload must not read it again, nor any activity already settled
// that way (it did, at every reload, up to 30 requests each).
func TestPoliciesReloadDoesNotReadAgainForAVoteKnownNotReturned(t *testing.T) {
	_, offset, client := clockedDemo(t)
	ctx := context.Background()
	tag, err := client("alice").CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "round-ended-reload", UserIDs: []string{}})
	if err != nil || tag.Status != api.StatusConsensusNeeded {
		t.Fatalf("propose: %+v %v", tag, err)
	}
	offset.Store(int64(25 * time.Hour)) // alice's round has ended
	r := &activityReads{Client: client("carol")}
	h := newHarnessWith(t, r, client("carol"), theme.Options{Dark: true, NoColor: true}, 0)
	h.gotoScreen("Policies")
	p := h.policies()
	shown := func(when string) {
		t.Helper()
		for _, ra := range p.data.recent {
			if ra.act.ID == tag.ID {
				if ra.last == nil || !strings.Contains(ra.last.Why, policy.ErrVoteNotReturned.Error()) {
					t.Errorf("%s: alice's approval, of an ended round, is not said to be not returned: %+v", when, ra.last)
				}
				return
			}
		}
		t.Fatalf("%s: the tag is not among the recent activities", when)
	}
	before := r.n.Load()
	h.run(p.wantRecent())
	if first := r.n.Load() - before; first == 0 {
		t.Fatalf("set-up: the first load read no activity again (alice's vote is not in the list's copy)")
	}
	shown("first load")
	before, gen := r.n.Load(), p.recentGen
	h.key("r")
	if p.recentGen == gen || !p.recentLoaded || p.recentErr != "" {
		t.Fatalf("set-up: the reload of the recent activities did not land: %q", p.recentErr)
	}
	if again := r.n.Load() - before; again != 0 {
		t.Errorf("the reload read activities again %d time(s), though every vote missing was known not returned", again)
	}
	shown("reload")
}
