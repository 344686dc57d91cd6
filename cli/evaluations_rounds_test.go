package cli

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// 'activity evaluations' re-decides an evaluation in which no policy ran on
// the activity's votes up to the evaluation's vote; the vote of an ended
// round is no longer among the votes the service returns, so it decides on
// none: the submission by alice (root, 1 of 2, REQUIRES_CONSENSUS) is shown
// as DENY_IMPLICIT "no root member has approved it".
func TestEvaluationsOfEndedRoundNotDecidedAgain(t *testing.T) {
	var offset atomic.Int64
	clock := func() time.Time { return time.Now().Add(time.Duration(offset.Load())) }
	e := newVerbEnvOn(t, clock)
	alice := e.demo.ClientAt(e.demo.URL, "alice", api.WithClock(clock))
	act, err := alice.SetOrganizationFeature(context.Background(), api.SetOrganizationFeatureParams{Name: api.FeatureEmailAuth, Value: "disabled"})
	if err != nil {
		t.Fatal(err)
	}
	if act.Status != api.StatusConsensusNeeded {
		t.Fatalf("status %s", act.Status)
	}
	offset.Store(int64(25 * time.Hour))
	code, out, errOut := e.run("", "activity", "evaluations", act.ID)
	wantExit(t, "evaluations", code, 0, out, errOut)
	t.Logf("\n%s", out)
	if strings.Contains(out, "DENY") || !strings.Contains(out, "not among the votes the service returns now (an earlier 24-hour round's): not decided again") {
		t.Errorf("the service decided REQUIRES_CONSENSUS at alice's submission (1 of 2 root approvals) and the activity waits; "+
			"the CLI must say its vote is of an earlier round rather than decide it on the votes left:\n%s", out)
	}

	// bob's rejection, in the next round, leaves it waiting: the service
	// decides nothing on a rejection (no approval counted: a re-decision
	// would read "failed").
	a, err := e.demo.ClientAt(e.demo.URL, "bob", api.WithClock(clock)).RejectActivity(context.Background(), act.Fingerprint)
	if err != nil {
		t.Fatal(err)
	}
	if a.Status != api.StatusConsensusNeeded {
		t.Fatalf("after bob's rejection the activity is %s", a.Status)
	}
	code, out, errOut = e.run("", "activity", "evaluations", act.ID)
	wantExit(t, "evaluations", code, 0, out, errOut)
	t.Logf("\n%s", out)
	if strings.Contains(out, "DENY") || strings.Contains(out, "failed") || !strings.Contains(out, `"bob"'s rejection left the activity pending`) {
		t.Errorf("bob's rejection left the activity %s; the CLI shows:\n%s", a.Status, out)
	}
}

// A rejection that ends the activity adds an OUTCOME_REJECTED entry with no
// policy id; 'activity evaluations' labels it "(the root quorum's own)" —
// a rejection is one voter's (here carol's, after bob's), not the root
// quorum's, and no root quorum evaluation is involved.
func TestRejectionRowNamesTheRejecter(t *testing.T) {
	e := newVerbEnv(t)
	ctx := context.Background()
	act, err := e.demo.Client("operator").CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "rejected-tag", UserIDs: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	for _, who := range []string{"bob", "carol", "alice"} {
		a, err := e.demo.Client(who).RejectActivity(ctx, act.Fingerprint)
		if err != nil {
			t.Fatal(err)
		}
		if a.Status == api.StatusRejected {
			break
		}
	}
	code, out, errOut := e.run("", "activity", "evaluations", act.ID)
	wantExit(t, "evaluations", code, 0, out, errOut)
	t.Logf("\n%s", out)
	rejected := false
	for _, l := range strings.Split(out, "\n") {
		if !strings.Contains(l, "OUTCOME_REJECTED") {
			continue
		}
		rejected = true
		if strings.Contains(l, rootQuorumRow) || !strings.Contains(l, `(rejection by "carol"`) {
			t.Errorf("the rejection is not labelled as carol's (her rejection ended it):\n%s", l)
		}
	}
	if !rejected {
		t.Errorf("no OUTCOME_REJECTED row:\n%s", out)
	}
}
