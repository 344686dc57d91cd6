package screens

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// errReset is the failure of a read after the evaluations (a timeout, a
// dropped connection).
var errReset = errors.New("connection reset by peer")

// voteThenFail is a Reader that runs hook (another member's vote) right
// after activity id is read once, and fails every later read of it.
type voteThenFail struct {
	*api.Client
	mu    sync.Mutex
	id    string
	reads int
	hook  func()
}

func (r *voteThenFail) GetActivity(ctx context.Context, id string) (*api.Activity, error) {
	r.mu.Lock()
	n := 0
	if id == r.id {
		r.reads++
		n = r.reads
	}
	h := r.hook
	r.mu.Unlock()
	if n >= 2 {
		return nil, errReset
	}
	out, err := r.Client.GetActivity(ctx, id)
	if n == 1 && h != nil {
		h()
	}
	return out, err
}

// bob approves between the detail's record read and its evaluations read,
// and the read after the evaluations fails. His vote (it completed the
// activity) is of unknown status to the console: the detail must not call it
// "not among the votes the service returns now", and must say the read
// failed.
func TestDetailFailedReadAfterEvaluationsLeavesVoteUnknown(t *testing.T) {
	d := servertest.StartDemo(t)
	act := proposeTag(t, d, "reread-fails")
	r := &voteThenFail{Client: d.Client("carol"), id: act.ID}
	h := newHarnessWith(t, r, d.Client("carol"), theme.Options{Dark: true, NoColor: true}, 0)
	h.send(tea.WindowSizeMsg{Width: 160, Height: 300})
	h.selectActivityID(act.ID)
	r.mu.Lock()
	r.hook = func() {
		if _, err := d.Client("bob").ApproveActivity(context.Background(), act.Fingerprint); err != nil {
			t.Error(err)
		}
	}
	r.mu.Unlock()
	h.key("enter")
	det := h.activities().detail
	if det == nil || r.reads < 2 || len(det.evals) < 2 {
		t.Fatalf("set-up: detail %v, reads %d, evals %d", det != nil, r.reads, len(det.evals))
	}
	f := h.frame()
	if strings.Contains(f, policy.ErrVoteNotReturned.Error()) {
		t.Errorf("the read after the evaluations failed, yet bob's vote of the current round is called not returned:\n%s", f)
	}
	for _, want := range []string{"could not refresh this record", "could not read the activity again after its evaluations", errReset.Error(), "status of its vote unknown"} {
		if !strings.Contains(f, want) {
			t.Errorf("the detail does not say %q:\n%s", want, f)
		}
	}
}

// failAfterList is a Reader that runs hook (another member's vote) right
// after the list of activities is read, and fails reads of activity id
// while fail is set.
type failAfterList struct {
	voteAfterList
	id   string
	fail atomic.Bool
	gets atomic.Int64 // reads of id
}

func (r *failAfterList) GetActivity(ctx context.Context, id string) (*api.Activity, error) {
	if id == r.id {
		r.gets.Add(1)
		if r.fail.Load() {
			return nil, errReset
		}
	}
	return r.Client.GetActivity(ctx, id)
}

// In Policies' recent evaluations, bob approves between the list read and
// the evaluations read, and the read after the evaluations fails: his vote
// is not called not returned, the reason shows, and the evaluation is not
// remembered as not returned; the next reload explains his vote as the
// current round's.
func TestRecentFailedReadAfterEvaluationsLeavesVoteUnknown(t *testing.T) {
	d := servertest.StartDemo(t)
	act := proposeTag(t, d, "recent-reread-fails")
	r := &failAfterList{voteAfterList: voteAfterList{Client: d.Client("carol")}, id: act.ID}
	r.fail.Store(true)
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
	ra := recentOf(t, p, act.ID)
	if r.gets.Load() == 0 || ra.last == nil {
		t.Fatalf("set-up: the activity was not read again after its evaluations (%d reads), or not explained: %+v", r.gets.Load(), ra.last)
	}
	if strings.Contains(ra.last.Why, policy.ErrVoteNotReturned.Error()) {
		t.Errorf("the read after the evaluations failed, yet bob's vote of the current round is called not returned: %q", ra.last.Why)
	}
	for _, want := range []string{"could not read the activity again after its evaluations", errReset.Error(), "status of its vote unknown"} {
		if !strings.Contains(ra.last.Why, want) {
			t.Errorf("the evaluation does not say %q: %q", want, ra.last.Why)
		}
	}
	if len(p.notReturned) != 0 {
		t.Errorf("an evaluation whose vote's status is unknown is remembered as not returned: %v", p.notReturned)
	}
	r.fail.Store(false)
	h.key("r")
	if !p.recentLoaded || p.recentErr != "" {
		t.Fatalf("set-up: the reload did not land: %q", p.recentErr)
	}
	ra = recentOf(t, p, act.ID)
	if ra.last == nil || strings.Contains(ra.last.Why, policy.ErrVoteNotReturned.Error()) || strings.Contains(ra.last.Why, "unknown") {
		t.Errorf("after a read that works, bob's vote is still not explained as the current round's: %+v", ra.last)
	}
}

// recentOf is the recent entry of activity id.
func recentOf(t *testing.T, p *Policies, id string) recentActivity {
	t.Helper()
	for _, ra := range p.data.recent {
		if ra.act.ID == id {
			return ra
		}
	}
	t.Fatalf("activity %s is not among the recent ones", id)
	return recentActivity{}
}

// An evaluation id the service gives again to another vote's evaluation (a
// hostile service; the local service's ids are unique) is not taken for
// the evaluation known not returned: the new vote may be the current
// round's, and the reload must read the activity again for it.
func TestNotReturnedMemoIsOfTheVote(t *testing.T) {
	old := api.PolicyEvaluation{ID: "eval-1", VoteID: "vote-old"}
	known := notReturnedOf([]recentActivity{{act: api.Activity{ID: "act-1"}, evals: []api.PolicyEvaluation{old}, notReturned: true}})
	if !known.has("act-1", old) {
		t.Fatalf("set-up: the evaluation known not returned is not remembered: %v", known)
	}
	if reused := (api.PolicyEvaluation{ID: "eval-1", VoteID: "vote-new"}); known.has("act-1", reused) {
		t.Errorf("evaluation %s of another vote (%s) is taken as known not returned", reused.ID, reused.VoteID)
	}
}
