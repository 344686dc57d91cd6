package screens

import (
	"context"
	"fmt"
	"slices"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// addDemoPolicy creates a policy in the demo organization: alice proposes,
// bob approves when a vote is needed.
func addDemoPolicy(t *testing.T, d *servertest.Demo, name string) {
	t.Helper()
	ctx := context.Background()
	act, err := d.Client("alice").CreatePolicy(ctx, api.CreatePolicyParams{PolicyName: name, Effect: api.EffectAllow,
		Condition: fmt.Sprintf("activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG' && activity.type != '%s'", name)})
	if err == nil && act.Status == api.StatusConsensusNeeded {
		act, err = d.Client("bob").ApproveActivity(ctx, act.Fingerprint)
	}
	if err != nil || act.Status != api.StatusCompleted {
		t.Fatalf("create policy %q: %v", name, err)
	}
}

// shownPolicyNames are the names of the policies the Policies screen holds.
func shownPolicyNames(p *Policies) []string {
	var names []string
	for _, pol := range p.data.policies {
		names = append(names, pol.PolicyName)
	}
	return names
}

// Reloading policies that did not change compiles none of them again: not
// the organization's load, not the Policies screen's. A policy created since
// is the only one compiled. Against the local service.
func TestReloadOfUnchangedPoliciesCompilesNothing(t *testing.T) {
	d := servertest.StartDemo(t)
	h := memberConsole(t, d.Client("alice"))
	p := h.toPolicies()
	if len(p.data.ctx.ordered) == 0 {
		t.Fatalf("set-up: the demo's policies did not load:\n%s", h.frame())
	}
	before := slices.Clone(p.data.ctx.ordered)
	compiled := h.root.common.Compiled.Compiles()

	h.send(reloadOrgMsg{})
	h.run(p.load())
	if got := h.root.common.Compiled.Compiles() - compiled; got != 0 {
		t.Errorf("reloading %d unchanged policies compiled %d of them again", len(before), got)
	}
	for i, pol := range p.data.ctx.ordered[:len(before)] {
		if pol.Compiled != before[i].Compiled {
			t.Errorf("policy %s was compiled again by the reload", pol.ID)
		}
	}

	addDemoPolicy(t, d, "created since")
	h.run(p.load())
	if got := h.root.common.Compiled.Compiles() - compiled; got != 1 {
		t.Errorf("reloading with one new policy compiled %d policies, want 1", got)
	}
	if names := shownPolicyNames(p); !slices.Contains(names, "created since") {
		t.Errorf("the new policy is not shown: %v", names)
	}
}

// Activities completing faster than a load takes: each completion is seen
// (orgChangedMsg) while the reload of the one before still runs. Every load
// must still land, each at most one change behind, and the last shows the
// newest policies. Before, each completion started a new load that made the
// running one stale, so none landed while the stream lasted. The Policies
// screen shows what the root's organization load read (it reads the users
// once, not once per screen).
func TestPoliciesReloadsLandDuringAStreamOfChanges(t *testing.T) {
	d := servertest.StartDemo(t)
	h := memberConsole(t, d.Client("alice"))
	p := h.toPolicies()
	// read runs cmd as the program would, delivering to the root what it
	// brings, except the organization's loads: those it returns, read but
	// not landed.
	read := func(cmd tea.Cmd) []tea.Msg {
		var loads []tea.Msg
		for queue := []tea.Cmd{cmd}; len(queue) > 0; queue = queue[1:] {
			for _, m := range collect(queue[0]) {
				if _, ok := m.(orgLoadedMsg); ok {
					loads = append(loads, m)
					continue
				}
				_, next := h.root.Update(m)
				queue = append(queue, next)
			}
		}
		return loads
	}
	land := func(loads []tea.Msg) tea.Cmd {
		var cmds []tea.Cmd
		for _, m := range loads {
			_, cmd := h.root.Update(m)
			cmds = append(cmds, cmd)
		}
		return tea.Batch(cmds...)
	}
	_, inflight := h.root.Update(orgChangedMsg{})
	const rounds = 4
	for i := range rounds {
		loads := read(inflight) // the running load reads the service…
		addDemoPolicy(t, d, fmt.Sprintf("stream %d", i))
		_, next := h.root.Update(orgChangedMsg{}) // …another completion is seen…
		inflight = tea.Batch(next, land(loads))   // …then the load lands
		if i > 0 && !slices.Contains(shownPolicyNames(p), fmt.Sprintf("stream %d", i-1)) {
			t.Fatalf("round %d: the screen is more than one change behind, showing %v", i, shownPolicyNames(p))
		}
	}
	for inflight != nil { // the stream ends: what runs lands
		inflight = land(read(inflight))
	}
	if names := shownPolicyNames(p); !slices.Contains(names, fmt.Sprintf("stream %d", rounds-1)) {
		t.Errorf("after the stream the newest policy is not shown: %v", names)
	}
	if p.reload.running || h.root.orgReload.running {
		t.Error("the screen still says it is loading")
	}
}
