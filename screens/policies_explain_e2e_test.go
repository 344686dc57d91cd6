package screens

import (
	"regexp"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// The open evaluation in Policies explains each of its activity's stored
// evaluations once, not at every render: explaining re-runs the policies, and
// the detail is drawn again at every tick and load. Against the local
// service.
func TestEndToEndPoliciesEvaluationIsNotExplainedAgainOnRender(t *testing.T) {
	d := servertest.StartDemo(t)
	h := demoHarness(t, d, nil)
	p := h.toPolicies()
	calls := 0
	p.explained.explain = func(ec evaluationContext, a api.Activity, e api.PolicyEvaluation) explained {
		calls++
		return explainEvaluation(ec, a, e)
	}
	h.key("e")
	h.key("enter")
	ra := p.selectedRecent()
	if !p.list.IsOpen() || ra == nil || len(ra.evals) == 0 {
		t.Fatalf("no evaluation of the demo opened:\n%s", h.frame())
	}
	if calls != len(ra.evals) {
		t.Fatalf("opening an activity with %d evaluations explained %d through the cache, want each once", len(ra.evals), calls)
	}
	before := h.frame()
	if !strings.Contains(before, "Evaluation 1 of") {
		t.Fatalf("the open evaluation is not explained:\n%s", before)
	}
	h.send(clockMsg{})
	p.renderDetail()
	if calls != len(ra.evals) {
		t.Errorf("rendering again explained %d more times, want 0 (remembered)", calls-len(ra.evals))
	}
	// The ages count on with the wall clock between the two frames ("(0s
	// ago)", then "(1s ago)" on a busy machine); the explanation must not.
	if after := h.frame(); withoutAges(after) != withoutAges(before) {
		t.Errorf("the remembered explanation renders differently:\n%s\nthen\n%s", before, after)
	}
}

// ageText is the "(12s ago)" the console writes after a time, with the
// padding after it, which is as long as the age is short.
var ageText = regexp.MustCompile(`\(\d+[smhd] ago\) *`)

// withoutAges is frame with its ages blanked: an age is as old as the
// moment it was drawn.
func withoutAges(frame string) string { return ageText.ReplaceAllString(frame, "(… ago)") }
