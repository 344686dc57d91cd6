package screens

import (
	"context"
	"fmt"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// One clock tick (every 5 s) on a console whose Policies screen has loaded
// an organization of 2,000 policies, seen from Activities: the rows of every
// screen are rebuilt so that their ages count up, and the Policies screen's
// cost should be that of its rows, not of reading every expression again.
// Hidden, it rebuilds them when shown: "shown after a tick" measures that.
// Setting up takes about 40 s (each policy is a create_policy and a vote).
//
//	go test -run '^$' -bench PoliciesClockTick -benchmem -benchtime 20x ./screens/
func BenchmarkPoliciesClockTick(b *testing.B) {
	const n = 2000
	d := servertest.StartDemo(b)
	addPolicies(b, d, n)
	h := demoHarnessWithin(b, d.Client("alice"), ProofSettings{Apps: d.Info.EnclaveApps}, largeOrgCommands)
	h.gotoScreen("Policies")
	if got := len(h.policies().data.policies); got < n {
		b.Fatalf("the Policies screen holds %d policies, not %d", got, n)
	}
	h.gotoScreen("Activities")
	b.Run("tick", func(b *testing.B) {
		for b.Loop() {
			h.send(clockMsg{})
			_ = h.root.Render()
		}
	})
	// Where the hidden screen's share went: Policies shown after a tick it
	// missed (its rows rebuilt then), and back to Activities.
	b.Run("shown after a tick", func(b *testing.B) {
		for b.Loop() {
			h.send(clockMsg{})
			h.gotoScreen("Policies")
			_ = h.root.Render()
			h.gotoScreen("Activities")
		}
	})
}

// addPolicies adds n allowing policies to the demo organization, each a
// create_policy that bob approves: about 40 s for 2,000.
func addPolicies(tb testing.TB, d *servertest.Demo, n int) {
	tb.Helper()
	ctx := context.Background()
	for i := range n {
		pol, err := d.Client("alice").CreatePolicy(ctx, api.CreatePolicyParams{PolicyName: fmt.Sprintf("policy %04d", i), Effect: api.EffectAllow,
			Condition: fmt.Sprintf("activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG' && activity.params.user_tag_name == 'tag-%04d'", i),
			Consensus: fmt.Sprintf("approvers.any(u, u.tags.contains('team-%d')) && approvers.count() >= 2", i%50), Notes: "n"})
		if err == nil && pol.Status == api.StatusConsensusNeeded {
			pol, err = d.Client("bob").ApproveActivity(ctx, pol.Fingerprint)
		}
		if err != nil || pol.Status != api.StatusCompleted {
			tb.Fatalf("create policy %d: %v %+v", i, err, pol)
		}
	}
}
