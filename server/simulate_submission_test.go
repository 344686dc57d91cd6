package server_test

import (
	"context"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
	"github.com/vigil-console/vigil/server/servertest"
)

// TestSimulationSeesDenyAtSubmission: the service decides an activity at its
// submission and at every vote, and a DENY_EXPLICIT at any of them fails it.
// At the last vote the root quorum has met its threshold and bypasses the
// draft, so a simulation of only that vote reads a DENY draft on
// create_policy as "locks out: no" over a create_policy the root quorum
// completed; with it in place every create_policy a root member submits
// FAILS at submission: the organization can never create a policy again
// (none can be deleted). The simulation must say it fails at submission.
func TestSimulationSeesDenyAtSubmission(t *testing.T) {
	ctx := context.Background()
	d := servertest.StartDemo(t)
	alice, bob := d.Client("alice"), d.Client("bob")
	users, err := alice.ListUsers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := alice.GetOrganizationConfigs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	create := func(name, effect, cond string) *api.Activity {
		t.Helper()
		a, err := alice.CreatePolicy(ctx, api.CreatePolicyParams{PolicyName: name, Effect: effect, Condition: cond})
		if err != nil {
			t.Fatal(err)
		}
		if a.Status == api.StatusConsensusNeeded {
			if a, err = bob.ApproveActivity(ctx, a.Fingerprint); err != nil {
				t.Fatal(err)
			}
		}
		return a
	}
	// Today: the root quorum (alice submits, bob approves) creates a policy.
	today := create("harmless", api.EffectAllow, "activity.resource == 'WALLET'")
	if today.Status != api.StatusCompleted {
		t.Fatalf("today's create_policy: %s", today.Status)
	}
	today, err = alice.GetActivity(ctx, today.ID)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := alice.ListPolicies(ctx)
	if err != nil {
		t.Fatal(err)
	}
	current, _ := policy.PoliciesOf(recs)
	const cond = "activity.resource == 'POLICY'"
	draftC, err := policy.Compile(cond, "")
	if err != nil {
		t.Fatal(err)
	}
	members := policy.Members(users, *cfg)
	sim := policy.SimulateActivity(current, policy.Policy{ID: "draft", Effect: api.EffectDeny, Compiled: draftC}, *today, members, policy.QuorumOf(cfg.Quorum), time.Now())

	// The draft, really created (the root quorum approves it).
	if a := create("no policy changes", api.EffectDeny, cond); a.Status != api.StatusCompleted {
		t.Fatalf("create the draft: %s", a.Status)
	}
	// The same activity again, submitted and voted as today.
	after, err := alice.CreatePolicy(ctx, api.CreatePolicyParams{PolicyName: "harmless 2", Effect: api.EffectAllow, Condition: "activity.resource == 'WALLET'"})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("with the draft in place alice's create_policy is %s (%v)", after.Status, after.Failure)
	if after.Status != api.StatusFailed {
		t.Fatalf("with the draft in place alice's create_policy is %s: the test's premise is gone", after.Status)
	}
	if !sim.LocksOut || !policy.Fails(sim.WithDraft.Outcome) || !sim.WithDraftAt.Submission {
		t.Errorf("the simulation says with draft %s %s (%s), locks out %v; the service FAILS the same create_policy at its submission: the root quorum can no longer create any policy",
			sim.WithDraft.Outcome, sim.WithDraftAt.Where(), sim.WithDraft.Reason, sim.LocksOut)
	}
	if sim.Today.Outcome != api.OutcomeAllow {
		t.Errorf("today the simulation says %s (%s); the service completed it", sim.Today.Outcome, sim.Today.Reason)
	}
}
