package screens

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// A deny on create_policy, in an organization whose root quorum needs two
// approvals, fails every later create_policy at its submission, before the
// second root member can approve it, and no operation deletes a policy. The
// editor's simulation over a create_policy the root quorum completed must
// say it FAILS at submission and locks the organization out (deciding only
// the last approval, where the root quorum bypasses every policy, said
// ALLOW); the editor and the confirm before submitting warn that it cannot be
// undone.
func TestEndToEndPolicyEditorWarnsOfDenyOnCreatePolicy(t *testing.T) {
	d := servertest.StartDemo(t)
	alice := d.Client("alice")
	a := addWalletsPolicy(t, d)
	h := memberConsole(t, alice)
	h.send(tea.WindowSizeMsg{Width: 200, Height: 60})
	h.gotoScreen("Policies")
	p := h.policies()
	h.key("n")
	if p.editor == nil {
		t.Fatal("n did not open the editor")
	}
	h.typeText("No policy changes")
	h.key("tab")
	h.key("right") // EFFECT_DENY
	h.key("tab")
	h.typeText("activity.resource == 'POLICY'")
	if !strings.Contains(h.plainFrame(), irreversibleLine) {
		t.Errorf("the editor does not warn that the deny cannot be undone:\n%s", h.plainFrame())
	}
	h.key("ctrl+r")
	var row *simRow
	for i := range p.editor.sim {
		if p.editor.sim[i].id == a.ID {
			row = &p.editor.sim[i]
		}
	}
	if row == nil {
		t.Fatalf("the create_policy %s was not simulated: %+v", a.ID, p.editor.sim)
	}
	if !row.locksOut || !strings.Contains(row.why, "FAILS at submission") {
		t.Errorf("the simulation says %s → %s (%s), locks out %v; the service would fail it at its submission",
			row.today, row.withDraft, row.why, row.locksOut)
	}
	h.key("ctrl+s")
	out := strings.Join(strings.Fields(h.plainFrame()), " ")
	if !strings.Contains(out, "Create policy") {
		t.Fatalf("ctrl+s asked for no confirm:\n%s", h.plainFrame())
	}
	if !strings.Contains(out, "CANNOT BE UNDONE: this deny's condition can match create_policy") {
		t.Errorf("the confirm does not say the deny cannot be undone:\n%s", h.plainFrame())
	}
}

// addWalletsPolicy has the root quorum (alice, then bob) create an allow of
// wallet activities: something the organization does today, which a deny
// of policy changes would lock it out of. It returns the completed activity.
func addWalletsPolicy(t *testing.T, d *servertest.Demo) *api.Activity {
	t.Helper()
	ctx := context.Background()
	a, err := d.Client("alice").CreatePolicy(ctx, api.CreatePolicyParams{PolicyName: "wallets", Effect: api.EffectAllow, Condition: "activity.resource == 'WALLET'"})
	if err != nil {
		t.Fatal(err)
	}
	if a, err = d.Client("bob").ApproveActivity(ctx, a.Fingerprint); err != nil || a.Status != api.StatusCompleted {
		t.Fatalf("the root quorum creates a policy: %v (%v)", err, a)
	}
	return a
}
