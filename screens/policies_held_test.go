package screens

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// An open evaluation is of one activity: a reload that pushes that activity
// out of the last 30 must not turn the detail into another activity's
// evaluations, nor make A open another activity than the one read.
func TestOpenEvaluationStaysItsActivityAfterReload(t *testing.T) {
	feature := func(url string) api.Intent {
		return api.Intent{SetOrganizationFeatureIntent: &api.SetOrganizationFeatureParams{Name: "FEATURE_NAME_WEBHOOK", Value: url}}
	}
	var acts []api.Activity
	for i := range recentActivities {
		acts = append(acts, pendingActivity(fmt.Sprintf("act-%02d", i), "bob", time.Duration(i+1)*time.Minute,
			feature("https://hooks.example/x"), api.TypeSetOrganizationFeature))
	}
	oldest := acts[len(acts)-1].ID
	fake := &fakeClient{activities: acts}
	h := newHarness(t, fake, false, 0)
	p := h.toPolicies()
	h.key("e")
	for range recentActivities - 1 {
		h.key("down")
	}
	h.key("enter")
	if ra := p.selectedRecent(); !p.list.IsOpen() || ra == nil || ra.act.ID != oldest {
		t.Fatalf("did not open the oldest evaluation: open=%v %+v", p.list.IsOpen(), ra)
	}
	// A newer activity arrives; the user refreshes: the oldest drops out.
	fake.mu.Lock()
	fake.activities = append([]api.Activity{pendingActivity("act-new", "carol", 0,
		feature("https://evil.example/y"), api.TypeSetOrganizationFeature)}, fake.activities...)
	fake.mu.Unlock()
	h.key("r")
	out := h.plainFrame()
	if !p.list.IsOpen() {
		t.Fatalf("the detail closed:\n%s", out)
	}
	if !strings.Contains(out, "Activity:") || !strings.Contains(out, oldest) || strings.Contains(out, "act-new") {
		t.Errorf("the open evaluation of %s no longer shows it alone after the reload:\n%s", oldest, out)
	}
	if !strings.Contains(out, "no longer listed") {
		t.Errorf("the detail does not say its activity is no longer listed:\n%s", out)
	}
	h.msgs = nil
	h.key("A")
	h.key("enter")
	for _, m := range h.msgs {
		if s, ok := m.(ShowActivityMsg); ok {
			t.Errorf("A on the evaluation of %s, no longer listed, opened %s", oldest, s.ID)
		}
	}
	if out := h.plainFrame(); !strings.Contains(out, "is no longer listed") {
		t.Errorf("A on an evaluation no longer listed does not say why nothing opened:\n%s", out)
	}
}

// While the open evaluation's activity is still listed, a reload that moves
// it to another row keeps the detail on it, and A opens it.
func TestOpenEvaluationFollowsItsActivityToAnotherRow(t *testing.T) {
	feature := api.Intent{SetOrganizationFeatureIntent: &api.SetOrganizationFeatureParams{Name: "FEATURE_NAME_WEBHOOK", Value: "https://hooks.example/x"}}
	acts := []api.Activity{
		pendingActivity("act-a", "bob", time.Minute, feature, api.TypeSetOrganizationFeature),
		pendingActivity("act-b", "bob", 2*time.Minute, feature, api.TypeSetOrganizationFeature),
	}
	fake := &fakeClient{activities: acts}
	h := newHarness(t, fake, false, 0)
	p := h.toPolicies()
	h.key("e")
	h.key("enter")
	first := p.list.Table.SelectedID()
	fake.mu.Lock()
	fake.activities = append([]api.Activity{pendingActivity("act-new", "carol", 0, feature, api.TypeSetOrganizationFeature)}, fake.activities...)
	fake.mu.Unlock()
	h.key("r")
	if out := h.plainFrame(); strings.Contains(out, "act-new") || strings.Contains(out, "no longer listed") {
		t.Errorf("the open evaluation of %s changed after a reload:\n%s", first, out)
	}
	h.msgs = nil
	h.key("A")
	var opened []string
	for _, m := range h.msgs {
		if s, ok := m.(ShowActivityMsg); ok {
			opened = append(opened, s.ID)
		}
	}
	if len(opened) != 1 || opened[0] != first {
		t.Errorf("A on the evaluation of %s opened %v", first, opened)
	}
}

// An open policy the service no longer lists stays shown, marked, rather
// than turning into the policy that took its row.
func TestOpenPolicyGoneStaysShownMarked(t *testing.T) {
	pol := func(id, name string) api.Policy {
		return api.Policy{PolicyID: id, PolicyName: name, Effect: api.EffectAllow, Condition: "true",
			CreatedAt: api.NewTime(testNow.Add(-time.Hour)), UpdatedAt: api.NewTime(testNow.Add(-time.Hour))}
	}
	fake := &fakeClient{activities: sampleActivities(), policies: []api.Policy{pol("pol-a", "Alpha rule"), pol("pol-b", "Beta rule")}}
	h := newHarness(t, fake, false, 0)
	p := h.toPolicies()
	h.key("enter")
	open := p.selectedPolicy()
	if open == nil {
		t.Fatal("no policy open")
	}
	name, other := open.PolicyName, "Beta rule"
	if name == other {
		other = "Alpha rule"
	}
	fake.mu.Lock()
	for i, x := range fake.policies {
		if x.PolicyName == name {
			fake.policies = append(fake.policies[:i:i], fake.policies[i+1:]...)
			break
		}
	}
	fake.mu.Unlock()
	h.key("r")
	out := h.plainFrame()
	if !strings.Contains(out, name) || strings.Contains(out, other) {
		t.Errorf("the open policy %q turned into another after it was deleted:\n%s", name, out)
	}
	if !strings.Contains(out, "no longer listed") {
		t.Errorf("the detail does not say the policy is no longer listed:\n%s", out)
	}
}

// An evaluation naming a policy created after the policies loaded makes the
// Policies screen reload them (once), so the evaluation names it rather
// than reading "not reproducible".
func TestEvaluationNamingUnknownPolicyReloadsPolicies(t *testing.T) {
	ops := api.Policy{PolicyID: "pol-ops", PolicyName: "Ops rule", Effect: api.EffectAllow, Condition: "activity.resource == 'USER'",
		CreatedAt: api.NewTime(testNow.Add(-time.Hour)), UpdatedAt: api.NewTime(testNow.Add(-time.Hour))}
	late := api.Policy{PolicyID: "pol-late", PolicyName: "Late rule", Effect: api.EffectAllow, Condition: "activity.resource == 'NOTHING'",
		CreatedAt: api.NewTime(testNow.Add(-time.Minute)), UpdatedAt: api.NewTime(testNow.Add(-time.Minute))}
	acts := sampleActivities()
	evals := map[string][]api.PolicyEvaluation{}
	for _, a := range acts {
		evals[a.ID] = []api.PolicyEvaluation{{ID: "ev-" + a.ID, ActivityID: a.ID, VoteID: "v-" + a.ID,
			PolicyEvaluations: []api.PolicyOutcome{{PolicyID: "pol-late", Outcome: api.OutcomeDenyImplicit}},
			CreatedAt:         api.NewTime(testNow.Add(-time.Hour))}}
	}
	fake := &fakeClient{activities: acts, policies: []api.Policy{ops}, evals: evals}
	h := newHarness(t, fake, false, 0)
	h.toPolicies()
	// The policy is created after the policies loaded, before the recent
	// evaluations (they load when first needed).
	fake.mu.Lock()
	fake.policies = []api.Policy{ops, late}
	fake.mu.Unlock()
	h.key("e")
	h.key("enter")
	out := h.plainFrame()
	if !strings.Contains(out, "Late rule") {
		t.Errorf("the evaluation does not name the policy created since the policies loaded:\n%s", out)
	}
	// Deleted again, the id stays unknown: the screen does not reload for it
	// at every load.
	fake.mu.Lock()
	fake.policies = []api.Policy{ops}
	lists := fake.policyLists
	fake.mu.Unlock()
	h.key("r")
	fake.mu.Lock()
	defer fake.mu.Unlock()
	if n := fake.policyLists - lists; n != 1 {
		t.Errorf("r with an id that stays unknown listed the policies %d times, want 1", n)
	}
}
