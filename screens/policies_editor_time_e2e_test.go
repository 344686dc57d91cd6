package screens

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// fillPolicyDraft types a draft into the open policy editor: name, effect
// (deny when deny), condition, consensus left empty, and time.
func fillPolicyDraft(h *harness, name string, deny bool, condition, timeExpr string) {
	h.typeText(name)
	h.key("tab")
	if deny {
		h.key("right")
	}
	h.key("tab")
	h.typeText(condition)
	h.key("tab") // consensus
	h.key("tab")
	h.typeText(timeExpr)
}

// A time-based policy made in the console's editor reaches the service with
// its time: once the root quorum approves, the policy the service keeps is
// active when the typed expression says.
func TestEndToEndPolicyEditorCreatesATimeBasedPolicy(t *testing.T) {
	d := servertest.StartDemo(t)
	ctx := context.Background()
	h := memberConsole(t, d.Client("alice"))
	h.gotoScreen("Policies")
	p := h.policies()
	h.key("n")
	if p.editor == nil {
		t.Fatal("n did not open the editor")
	}
	const name = "Sessions in office hours"
	const timeExpr = "CronSpan('0 9 * * 1-5', '8h', 'Europe/Paris')"
	fillPolicyDraft(h, name, false, "activity.type == 'ACTIVITY_TYPE_CREATE_READ_ONLY_SESSION'", timeExpr)
	if errs := p.editor.form.Errors(); errs["time"] != "" {
		t.Fatalf("a valid time expression is refused: %s", errs["time"])
	}
	h.key("ctrl+s")
	if !strings.Contains(strings.Join(strings.Fields(h.plainFrame()), " "), "time: "+timeExpr) {
		t.Errorf("the confirm does not show the time:\n%s", h.plainFrame())
	}
	h.key("y")

	bob := d.Client("bob")
	ids := policyActivities(t, bob, name)
	if len(ids) != 1 {
		t.Fatalf("%d create_policy activities for %q, want 1:\n%s", len(ids), name, h.plainFrame())
	}
	act, err := bob.GetActivity(ctx, ids[0])
	if err != nil {
		t.Fatal(err)
	}
	if act.Status != api.StatusCompleted {
		if act, err = bob.ApproveActivity(ctx, act.Fingerprint); err != nil || act.Status != api.StatusCompleted {
			t.Fatalf("bob's approval did not create the policy: %+v %v", act, err)
		}
	}
	pols, err := bob.ListPolicies(ctx)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, pol := range pols {
		if pol.PolicyName == name {
			found = true
			if pol.Time != timeExpr {
				t.Errorf("the service keeps the time %q, typed %q", pol.Time, timeExpr)
			}
		}
	}
	if !found {
		t.Errorf("no policy %q on the service", name)
	}
}

// A time expression that does not compile is said on the time field, with
// its column, and the draft cannot be submitted: nothing reaches the service.
func TestEndToEndPolicyEditorRefusesABadTime(t *testing.T) {
	d := servertest.StartDemo(t)
	h := memberConsole(t, d.Client("alice"))
	h.gotoScreen("Policies")
	p := h.policies()
	h.key("n")
	const name = "Bad time"
	fillPolicyDraft(h, name, false, "", "CronSpan('*/5 * * * *', '1h', 'UTC')")
	errText := p.editor.form.Errors()["time"]
	if !strings.Contains(errText, "column") || !strings.Contains(errText, "*/5") {
		t.Fatalf("the time field does not say what is wrong and where: %q", errText)
	}
	if !strings.Contains(h.plainFrame(), "*/5") {
		t.Errorf("the error is not shown:\n%s", h.plainFrame())
	}
	h.key("ctrl+s")
	if _, ok := h.root.dialogs.Top().(*ConfirmDialog); ok {
		t.Fatalf("a draft with a bad time asked to be submitted:\n%s", h.plainFrame())
	}
	h.key("y")
	if ids := policyActivities(t, d.Client("bob"), name); len(ids) != 0 {
		t.Errorf("a draft with a bad time was submitted: %v", ids)
	}
	if p.editor == nil {
		t.Error("the editor closed, losing the draft")
	}
}

// The simulation runs the draft's time as the service does: a deny whose
// time was false when the service decided an activity is skipped, and the
// row says so, where the same deny active at all times locks activities out.
func TestEndToEndPolicyEditorSimulatesTheTime(t *testing.T) {
	d := servertest.StartDemo(t)
	h := memberConsole(t, d.Client("alice"))
	h.gotoScreen("Policies")
	p := h.policies()
	h.key("n")
	fillPolicyDraft(h, "Deny before 2000", true, "true", "")
	h.key("ctrl+r")
	if p.editor.simErr != "" || lockOuts(p.editor.sim) == 0 {
		t.Fatalf("a deny of everything at all times locks nothing out, so the time cannot be told apart: %q\n%s", p.editor.simErr, h.plainFrame())
	}
	h.typeText("time.now < Timestamp('2000-01-01T00:00:00Z')")
	h.key("ctrl+r")
	if p.editor.simErr != "" || len(p.editor.sim) == 0 {
		t.Fatalf("ctrl+r simulated nothing: %q\n%s", p.editor.simErr, h.plainFrame())
	}
	if n := lockOuts(p.editor.sim); n > 0 {
		t.Errorf("a deny whose time is false locks %d activities out:\n%s", n, h.plainFrame())
	}
	skipped := 0
	for _, r := range p.editor.sim {
		if r.today != r.withDraft {
			t.Errorf("a draft whose time is false changes an outcome: %+v", r)
		}
		if strings.Contains(r.why, api.OutcomeTimeInactive) {
			skipped++
		}
	}
	if skipped == 0 || !strings.Contains(h.plainFrame(), "the draft is skipped ("+api.OutcomeTimeInactive) {
		t.Errorf("no row says the draft is skipped for its time:\n%s", h.plainFrame())
	}
}
