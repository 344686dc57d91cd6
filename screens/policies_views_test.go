package screens

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
)

// e and e again come back to the policies as they were left: the same
// policy selected, the same filter and sort.
func TestPoliciesViewSwitchKeepsCursorFilterAndSort(t *testing.T) {
	fake := &fakeClient{activities: sampleActivities(), policies: []api.Policy{
		{PolicyID: "pol-a", PolicyName: "Alpha ops", Effect: api.EffectAllow, Condition: "true"},
		{PolicyID: "pol-b", PolicyName: "Beta ops", Effect: api.EffectDeny, Condition: "true"},
		{PolicyID: "pol-c", PolicyName: "Gamma ops", Effect: api.EffectAllow, Condition: "true"},
		{PolicyID: "pol-d", PolicyName: "Delta finance", Effect: api.EffectAllow, Condition: "true"},
	}}
	h := newHarness(t, fake, false, 0)
	h.send(tea.WindowSizeMsg{Width: 120, Height: 40})
	p := h.toPolicies()
	h.key("/")
	h.typeText("ops")
	h.key("enter")
	h.key("O") // reverse sort
	h.key("g")
	h.key("j") // the second row, not the first: the cursor must come back here
	before := p.list.Table.State()
	if before.SelectedID != "pol-b" || before.Filter != "ops" {
		t.Fatalf("setup: %+v", before)
	}
	h.key("e")
	if !p.evals || p.list.Table.FilterPattern() != "" {
		t.Fatalf("the evaluations view took the policies' filter %q", p.list.Table.FilterPattern())
	}
	h.key("e")
	if after := p.list.Table.State(); after != before {
		t.Errorf("back on the policies: %+v, left as %+v", after, before)
	}
	if got := p.selectedPolicy(); got == nil || got.PolicyID != before.SelectedID {
		t.Errorf("the preview and keys act on %v, not the policy left selected (%s)", got, before.SelectedID)
	}
}
