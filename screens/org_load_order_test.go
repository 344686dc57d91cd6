package screens

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui/theme"
)

// loadedOrg runs cmd and returns the organization load's reply among its
// messages, without delivering it: the load is in flight until the test
// sends it.
func loadedOrg(t *testing.T, cmd tea.Cmd) orgLoadedMsg {
	t.Helper()
	for _, m := range collect(cmd) {
		if loaded, ok := m.(orgLoadedMsg); ok {
			return loaded
		}
	}
	t.Fatal("set-up: no organization load")
	return orgLoadedMsg{}
}

// addDenyPolicy creates, on the fake service, a DENY policy for everything.
func addDenyPolicy(t *testing.T, fake *fakeClient, id string) {
	t.Helper()
	pols, _ := fake.ListPolicies(t.Context())
	fake.policies = append(append([]api.Policy{}, pols...), api.Policy{PolicyID: id, PolicyName: "New policy",
		Effect: api.EffectDeny, Condition: "true", CreatedAt: api.NewTime(testNow), UpdatedAt: api.NewTime(testNow.Add(time.Second))})
}

// r on the Organization screen reads the organization; a policy created
// meanwhile is read by the completion's reload, which lands first. r's
// reply, landing last, must not bring back the organization without it: the
// predictions would ignore a DENY policy (fail open).
func TestOrganizationRefreshLandingLastKeepsTheNewerOrganization(t *testing.T) {
	fake := &fakeClient{activities: sampleActivities()}
	h := newHarnessWith(t, fake, fake, theme.Options{Dark: true, NoColor: true}, 0)
	h.key("@Organization")
	_, cmd := h.root.Update(keyPress("r"))
	var older orgLoadedMsg
	for _, m := range collect(cmd) {
		if _, ok := m.(reloadOrgMsg); ok {
			_, load := h.root.Update(m)
			older = loadedOrg(t, load)
		}
	}
	if !older.org.Loaded {
		t.Fatal("set-up: r did not load the organization")
	}
	addDenyPolicy(t, fake, "pol-new")
	h.send(orgChangedMsg{})
	if h.root.common.Org.PolicyNames["pol-new"] == "" {
		t.Fatalf("set-up: the completion's reload did not see the new policy")
	}
	h.send(older)
	if h.root.common.Org.PolicyNames["pol-new"] == "" {
		t.Errorf("an organization read before the change replaced the one read after it: the console no longer knows policy pol-new")
	}
}

// The detail's reload for an evaluation naming an unknown policy reads after
// the policy was created; the completion's reload, started before, lands
// after it and must not take the policy back.
func TestUnknownPolicyReloadIsNotUndoneByAnOlderReload(t *testing.T) {
	fake := &fakeClient{activities: sampleActivities(), evals: map[string][]api.PolicyEvaluation{}}
	for _, a := range fake.activities {
		fake.evals[a.ID] = []api.PolicyEvaluation{{ID: "ev-" + a.ID, ActivityID: a.ID, VoteID: "v-" + a.ID,
			PolicyEvaluations: []api.PolicyOutcome{{PolicyID: "pol-new", Outcome: api.OutcomeDenyExplicit}},
			CreatedAt:         api.NewTime(testNow.Add(-time.Minute))}}
	}
	h := newHarnessWith(t, fake, fake, theme.Options{Dark: true, NoColor: true}, 0)
	_, cmd := h.root.Update(orgChangedMsg{})
	older := loadedOrg(t, cmd)
	addDenyPolicy(t, fake, "pol-new")
	h.key("enter")
	if h.root.common.Org.PolicyNames["pol-new"] == "" {
		t.Fatalf("set-up: the detail did not reload the organization for the unknown policy")
	}
	h.send(older)
	if h.root.common.Org.PolicyNames["pol-new"] == "" {
		t.Errorf("the completion's older reload took back the policy the detail's reload found")
	}
}

// Only the completion's own reload ends it: another load landing meanwhile
// must not let the next completion start a second reload alongside it (the
// older of the two could land last).
func TestOtherOrganizationLoadsDoNotEndTheCompletionReload(t *testing.T) {
	fake := &fakeClient{activities: sampleActivities()}
	h := newHarnessWith(t, fake, fake, theme.Options{Dark: true, NoColor: true}, 0)
	_, cmd := h.root.Update(orgChangedMsg{})
	gated := loadedOrg(t, cmd)
	h.key("@Organization")
	h.key("r") // its load lands at once
	if _, cmd := h.root.Update(orgChangedMsg{}); cmd != nil {
		t.Fatal("a completion started a reload while the completion's reload was still in flight")
	}
	_, cmd = h.root.Update(gated)
	again := 0
	for _, m := range collect(cmd) {
		if _, ok := m.(orgChangedMsg); ok {
			again++
		}
	}
	if again != 1 {
		t.Errorf("%d reloads after the completion's reload landed, want 1 for the completion that came meanwhile", again)
	}
}
