package screens

import (
	"context"
	"reflect"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// explainWatch drives the harness as h.run does, but holds back every
// explainedMsg (the test delivers them) and marks when the screens' Update
// runs, so that an explanation computed there is caught.
type explainWatch struct {
	h        *harness
	updating bool
}

// send delivers msg, and what it leads to but explanations, which it returns.
func (w *explainWatch) send(msg tea.Msg) []explainedMsg {
	w.h.t.Helper()
	w.updating = true
	_, cmd := w.h.root.Update(msg)
	w.updating = false
	var held []explainedMsg
	for _, m := range collectWithin(cmd, w.h.commandWait()) {
		if ex, ok := m.(explainedMsg); ok {
			held = append(held, ex)
			continue
		}
		if _, quit := m.(tea.QuitMsg); quit || reflect.TypeOf(m).PkgPath() == "charm.land/bubbletea/v2" {
			continue
		}
		held = append(held, w.send(m)...)
	}
	return held
}

// explainer is explainEvaluation, failing the test when called from Update.
func (w *explainWatch) explainer(calls *int) func(evaluationContext, api.Activity, api.PolicyEvaluation) explained {
	return func(ec evaluationContext, a api.Activity, e api.PolicyEvaluation) explained {
		if w.updating {
			w.h.t.Error("an evaluation was explained inside Update, not in a command")
		}
		*calls++
		return explainEvaluation(ec, a, e)
	}
}

// staleReplies are the replies a command explaining evals of a would send,
// each saying marker: what an explanation of another activity, or of an
// older version, still in flight would bring.
func staleReplies(ec evaluationContext, a api.Activity, evals []api.PolicyEvaluation, marker string) []tea.Msg {
	x := explanations{explain: func(evaluationContext, api.Activity, api.PolicyEvaluation) explained {
		return explained{Explanation: policy.Explanation{Outcome: api.OutcomeAllow, Why: marker}}
	}}
	return collect(x.explainCmd(ec, a, evals))
}

// The open activity's evaluations are explained in a command, never in
// Update: the detail says "explaining…" until the explanation of the
// version shown arrives, and one computed for an older version of it (a
// vote came meanwhile) or for another activity is dropped, not shown.
// Against the local service.
func TestEndToEndExplanationsComeFromACommandAndStaleOnesAreDropped(t *testing.T) {
	d := servertest.StartDemo(t)
	ctx := context.Background()
	alice := d.Client("alice")
	act, err := alice.CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "explained-later", UserIDs: []string{d.Info.Members[0].UserID}})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("propose: %+v %v", act, err)
	}
	other, err := alice.CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "another-one", UserIDs: []string{d.Info.Members[0].UserID}})
	if err != nil {
		t.Fatalf("propose another: %v", err)
	}
	bob := d.Client("bob")
	h := newHarnessWith(t, bob, bob, theme.Options{Dark: true, NoColor: true}, 0)
	h.selectActivityID(act.ID)
	h.key("enter")
	detail := h.activities().detail
	if out := h.detailText(); !strings.Contains(out, "Policy evaluations (1)") || strings.Contains(out, "explaining…") {
		t.Fatalf("the detail should show the requester's evaluation explained:\n%s", out)
	}
	ec := h.root.common.Org.Eval
	older := staleReplies(ec, detail.activity, detail.evals, "STALE: of the version before the vote")
	otherEvals, err := bob.GetPolicyEvaluations(ctx, other.ID)
	if err != nil || len(otherEvals) == 0 {
		t.Fatalf("evaluations of the other activity: %v %v", otherEvals, err)
	}
	ofOther := staleReplies(ec, *other, otherEvals, "STALE: of another activity")

	w := &explainWatch{h: h}
	calls := 0
	detail.explained.explain = w.explainer(&calls)
	// Bob approves from elsewhere (the CLI); the refresh brings the new
	// version: completed, with the deciding evaluation.
	if _, err := bob.ApproveActivity(ctx, act.Fingerprint); err != nil {
		t.Fatalf("approve: %v", err)
	}
	held := w.send(keyPress("r"))
	out := h.detailText()
	if !strings.Contains(out, api.StatusCompleted) || !strings.Contains(out, "Policy evaluations (2)") {
		t.Fatalf("the refresh did not bring the vote:\n%s", out)
	}
	// The completion reloads the organization too: an explanation asked
	// before that reload is of an older version, and is among those held.
	if n := strings.Count(out, "explaining…"); n != 2 || len(held) < 2 {
		t.Fatalf("before their explanations arrive, the 2 evaluations should say explaining… (%d do; %d explanations sent):\n%s", n, len(held), out)
	}

	for _, msg := range append(older, ofOther...) {
		w.send(msg)
	}
	if out := h.detailText(); strings.Contains(out, "STALE") || strings.Count(out, "explaining…") != 2 {
		t.Fatalf("an explanation of an older version or of another activity was shown:\n%s", out)
	}

	for _, msg := range held {
		w.send(msg)
	}
	out = h.detailText()
	if strings.Contains(out, "explaining…") {
		t.Fatalf("the explanations arrived and are not shown:\n%s", out)
	}
	for _, e := range detail.evals {
		if want := explainEvaluation(h.root.common.Org.Eval, detail.activity, e).Why; !strings.Contains(out, want) {
			t.Errorf("the detail lacks the explanation %q of evaluation %s:\n%s", want, e.ID, out)
		}
	}
	if calls != len(held) {
		t.Errorf("%d explanations were sent and %d computed, want each computed once", len(held), calls)
	}
	// Later messages (a tick, a key) explain nothing again.
	w.send(clockMsg{})
	w.send(keyPress("down"))
	if n := calls - len(held); n != 0 {
		t.Errorf("explained %d more times after the explanations arrived, want 0", n)
	}
}

// The evaluation opened in Policies is explained the same way: in a
// command, "explaining…" until then; a reply computed with the policies
// loaded before a reload, or for another activity, is dropped. Against the
// local service.
func TestEndToEndPoliciesExplainsInACommandAndDropsStaleReplies(t *testing.T) {
	d := servertest.StartDemo(t)
	h := demoHarness(t, d, nil)
	p := h.toPolicies()
	h.key("e")
	if len(p.data.recent) < 2 {
		t.Fatalf("the demo should have at least 2 recent activities, has %d", len(p.data.recent))
	}
	w := &explainWatch{h: h}
	calls := 0
	p.explained.explain = w.explainer(&calls)
	detail := func() string {
		pane := p.list.Pane // a copy, tall and wide enough for the whole detail
		pane.SetSize(400, 1000)
		return pane.View()
	}
	held := w.send(keyPress("enter"))
	ra := p.selectedRecent()
	if !p.list.IsOpen() || ra == nil || len(ra.evals) == 0 {
		t.Fatalf("no evaluation of the demo opened:\n%s", h.frame())
	}
	if out := detail(); strings.Count(out, "explaining…") != len(ra.evals) || len(held) != len(ra.evals) {
		t.Fatalf("before their explanations arrive (%d sent), the %d evaluations should say explaining…:\n%s", len(held), len(ra.evals), out)
	}
	for _, msg := range held {
		w.send(msg)
	}
	if out := detail(); strings.Contains(out, "explaining…") {
		t.Fatalf("the explanations arrived and are not shown:\n%s", out)
	}

	// What explanations in flight would bring after a reload of the policies.
	stale := staleReplies(p.data.ctx, ra.act, ra.evals, "STALE: of the policies before the reload")
	for _, other := range p.data.recent {
		if other.act.ID != ra.act.ID && len(other.evals) > 0 {
			stale = append(stale, staleReplies(p.data.ctx, other.act, other.evals, "STALE: of another activity")...)
		}
	}
	held = w.send(keyPress("r"))
	ra = p.selectedRecent()
	if ra == nil || !p.list.IsOpen() {
		t.Fatalf("the reload closed the evaluation:\n%s", h.frame())
	}
	if out := detail(); strings.Count(out, "explaining…") != len(ra.evals) {
		t.Fatalf("the policies reloaded: the evaluations should be explained again, and say explaining… meanwhile:\n%s", out)
	}
	for _, msg := range stale {
		w.send(msg)
	}
	if out := detail(); strings.Contains(out, "STALE") || strings.Count(out, "explaining…") != len(ra.evals) {
		t.Fatalf("an explanation computed before the reload, or of another activity, was shown:\n%s", out)
	}
	for _, msg := range held {
		w.send(msg)
	}
	out := detail()
	if strings.Contains(out, "explaining…") {
		t.Fatalf("the explanations arrived and are not shown:\n%s", out)
	}
	for _, e := range ra.evals {
		if want := explainEvaluation(p.data.ctx, ra.act, e).Why; !strings.Contains(out, want) {
			t.Errorf("the detail lacks the explanation %q of evaluation %s:\n%s", want, e.ID, out)
		}
	}
	if calls != 2*len(ra.evals) {
		t.Errorf("%d evaluations, loaded twice, were explained %d times, want once per load", len(ra.evals), calls)
	}
}
