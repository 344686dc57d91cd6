package screens

import (
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// An open evaluation names its activity; A takes the user to it in
// Activities, open, to read and vote on.
func TestPoliciesEvaluationOpensItsActivity(t *testing.T) {
	fake := &fakeClient{activities: sampleActivities()}
	h := newHarness(t, fake, false, 0)
	p := h.toPolicies()
	h.key("e")
	h.key("enter")
	ra := p.selectedRecent()
	if !p.list.IsOpen() || ra == nil {
		t.Fatal("the evaluation did not open")
	}
	if !strings.Contains(h.plainFrame(), "open in Activities") {
		t.Errorf("the help of an open evaluation does not offer to open its activity:\n%s", h.plainFrame())
	}
	for _, k := range []string{"A", "enter"} {
		h.toPolicies()
		if !p.list.IsOpen() {
			t.Fatal("the evaluation did not stay open")
		}
		h.key(k)
		if h.root.ActiveTitle() != "Activities" {
			t.Fatalf("%s left the user on %s", k, h.root.ActiveTitle())
		}
		if d := h.activities().detail; d == nil || d.activity.ID != ra.act.ID {
			t.Errorf("after %s Activities does not show the evaluation's activity %s open", k, ra.act.ID)
		}
	}
}

// In a policy's detail ↓ chooses among the recent activities it decided, and A
// opens the chosen one in Activities.
func TestPoliciesDecidedActivityOpensInActivities(t *testing.T) {
	acts := sampleActivities()
	// pol-ops required consensus on the first two activities.
	evals := map[string][]api.PolicyEvaluation{}
	for _, a := range acts[:2] {
		evals[a.ID] = []api.PolicyEvaluation{{ID: "ev-" + a.ID, ActivityID: a.ID, CreatedAt: api.NewTime(testNow.Add(-time.Hour)),
			PolicyEvaluations: []api.PolicyOutcome{{PolicyID: "pol-ops", Outcome: api.OutcomeRequiresConsensus}}}}
	}
	fake := &fakeClient{activities: acts, evals: evals}
	h := newHarness(t, fake, false, 0)
	p := h.toPolicies()
	h.key("enter")
	pol := p.selectedPolicy()
	if !p.list.IsOpen() || pol == nil {
		t.Fatal("the policy did not open")
	}
	ds := p.decided(pol.PolicyID)
	if len(ds) < 2 {
		t.Fatalf("the sample policy %s decided %d recent activities; the test needs 2", pol.PolicyID, len(ds))
	}
	h.key("down")
	if !strings.Contains(h.plainFrame(), "▸ ") {
		t.Errorf("no activity is marked as chosen:\n%s", h.plainFrame())
	}
	h.key("A")
	if h.root.ActiveTitle() != "Activities" {
		t.Fatalf("A left the user on %s", h.root.ActiveTitle())
	}
	if d := h.activities().detail; d == nil || d.activity.ID != ds[1].act.ID {
		t.Errorf("Activities does not show the chosen activity %s open", ds[1].act.ID)
	}
}

// decidedByOps makes pol-ops require consensus on the activities ids.
func decidedByOps(evals map[string][]api.PolicyEvaluation, ids ...string) {
	for _, id := range ids {
		evals[id] = []api.PolicyEvaluation{{ID: "ev-" + id, ActivityID: id, CreatedAt: api.NewTime(testNow.Add(-time.Hour)),
			PolicyEvaluations: []api.PolicyOutcome{{PolicyID: "pol-ops", Outcome: api.OutcomeRequiresConsensus}}}}
	}
}

// chooseSecondDecided opens the policy that decided two of the sample
// activities and chooses the second of them (down), returning the chosen id.
func chooseSecondDecided(t *testing.T) (h *harness, fake *fakeClient, evals map[string][]api.PolicyEvaluation, p *Policies, pol *api.Policy, chosen string) {
	t.Helper()
	acts := sampleActivities()
	evals = map[string][]api.PolicyEvaluation{}
	decidedByOps(evals, acts[0].ID, acts[1].ID)
	fake = &fakeClient{activities: acts, evals: evals}
	h = newHarness(t, fake, false, 0)
	p = h.toPolicies()
	h.key("enter")
	h.key("down")
	pol = p.selectedPolicy()
	return h, fake, evals, p, pol, p.decided(pol.PolicyID)[1].act.ID
}

// The activity chosen among those a policy decided is that activity, not a
// position: a refresh that brings a newer decided activity on top must not
// make A open another one (which could then be voted on).
func TestPoliciesDecidedChoiceFollowsTheActivity(t *testing.T) {
	h, fake, evals, p, pol, chosen := chooseSecondDecided(t)
	fresh := pendingActivity("act-new", "bob", time.Minute,
		api.Intent{DeleteAPIKeysIntent: &api.DeleteAPIKeysParams{UserID: "u-carol", APIKeyIDs: []string{"key-9"}}}, api.TypeDeleteAPIKeys)
	fake.mu.Lock()
	fake.activities = append([]api.Activity{fresh}, fake.activities...)
	decidedByOps(evals, "act-new")
	fake.mu.Unlock()
	h.key("r")
	if ds := p.decided(pol.PolicyID); len(ds) != 3 || ds[0].act.ID != "act-new" {
		t.Fatalf("the refresh did not bring the newer decided activity on top: %d decided", len(ds))
	}
	h.key("A")
	if d := h.activities().detail; d == nil || d.activity.ID != chosen {
		got := "nothing"
		if d != nil {
			got = d.activity.ID
		}
		t.Errorf("chose %s, a refresh came, A opened %s", chosen, got)
	}
}

// When the chosen activity is no longer among those the policy decided,
// nothing is chosen: A opens nothing and says why.
func TestPoliciesDecidedChoiceGoneOpensNothing(t *testing.T) {
	h, fake, evals, _, _, chosen := chooseSecondDecided(t)
	fake.mu.Lock()
	evals[chosen] = nil // evaluated again, no longer by this policy
	fake.mu.Unlock()
	h.key("r")
	h.key("A")
	if h.root.ActiveTitle() != "Policies" || h.activities().detail != nil {
		t.Errorf("the chosen activity %s is gone, yet A went to %s", chosen, h.root.ActiveTitle())
	}
	if out := h.plainFrame(); !strings.Contains(out, "no longer among") {
		t.Errorf("neither the detail nor a notice says the chosen activity is gone:\n%s", out)
	}
}
