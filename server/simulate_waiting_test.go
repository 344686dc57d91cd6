package server

import (
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
)

// simulateAsClients decides act as `vigil policy simulate` and the console's
// editor do, from what the service returns to client c, with a deny draft on
// its resource.
func simulateAsClients(t *testing.T, c *api.Client, act *api.Activity) policy.Simulation {
	t.Helper()
	ctx := ctxT(t)
	users, err := c.ListUsers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := c.GetOrganizationConfigs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := c.ListPolicies(ctx)
	if err != nil {
		t.Fatal(err)
	}
	current, _ := policy.PoliciesOf(recs)
	draft, err := policy.Compile("activity.resource == 'USER'", "")
	if err != nil {
		t.Fatal(err)
	}
	return policy.SimulateActivity(current, policy.Policy{ID: "draft", Effect: api.EffectDeny, Compiled: draft}, *act, policy.Members(users, *cfg), policy.QuorumOf(cfg.Quorum), time.Now())
}

// A rejection re-evaluates, but the service acts on no decision at a
// rejection: with an allow whose time window opened before the rejection, the
// activity keeps waiting, and the simulators must say so, not ALLOW (they
// replay at the last approval, not the last vote).
func TestSimulatorIsNotDecidedByARejectionsTime(t *testing.T) {
	e := newEnvWith(t, envOptions{threshold: 2})
	ctx := ctxT(t)
	from := time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
	e.addTimedPolicy(api.CreatePolicyParams{PolicyName: "tags from in an hour", Effect: api.EffectAllow,
		Condition: "activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG'", Time: "time.now >= Timestamp('" + from + "')"})
	act, err := e.clients["alice"].CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "t", UserIDs: []string{}})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("submit: %v %+v", err, act)
	}
	if _, err := e.twoHoursOn("carol").RejectActivity(ctx, act.Fingerprint); err != nil {
		t.Fatal(err)
	}
	got, err := e.clients["alice"].GetActivity(ctx, act.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != api.StatusConsensusNeeded {
		t.Fatalf("after the rejection the service has it %s; the test needs it waiting", got.Status)
	}
	users, _ := e.clients["alice"].ListUsers(ctx)
	cfg, _ := e.clients["alice"].GetOrganizationConfigs(ctx)
	recs, _ := e.clients["alice"].ListPolicies(ctx)
	current, _ := policy.PoliciesOf(recs)
	in := policy.InputOfActivity(*got, policy.Members(users, *cfg), time.Time{})
	if d := policy.Decide(current, in, policy.QuorumOf(cfg.Quorum), policy.RootOnly(got.Type)); d.Outcome == api.OutcomeAllow {
		t.Errorf("the replay says %s (%s) for an activity the service keeps %s", d.Outcome, d.Reason, got.Status)
	}
	sim := simulateAsClients(t, e.clients["alice"], got)
	if sim.Today.Outcome != api.OutcomeRequiresConsensus || !sim.LocksOut {
		t.Errorf("simulated today %s (%s), locks out %v; the service keeps it waiting and the deny draft would deny it",
			sim.Today.Outcome, sim.Today.Reason, sim.LocksOut)
	}
}

// Once the votes' 24-hour round has ended the records show no votes, and the
// replay has no approvers: the activity still waits at the service, so the
// simulators say waiting, and a deny draft that would deny it locks it out.
func TestSimulatorKeepsAnExpiredRoundWaiting(t *testing.T) {
	e := newEnvWith(t, envOptions{threshold: 2})
	ctx := ctxT(t)
	act, err := e.clients["alice"].CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "t", UserIDs: []string{}})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("submit: %v %+v", err, act)
	}
	e.skew.Store(int64(25 * time.Hour))
	c, err := api.NewClient(e.http.URL, e.org.ID, e.keys["carol"], api.WithClock(func() time.Time { return time.Now().Add(25 * time.Hour) }))
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.GetActivity(ctx, act.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != api.StatusConsensusNeeded || len(got.Votes) != 0 {
		t.Fatalf("after 25 hours: %s with %d votes; the test needs it waiting with its round ended", got.Status, len(got.Votes))
	}
	sim := simulateAsClients(t, c, got)
	if sim.Today.Outcome != api.OutcomeRequiresConsensus {
		t.Errorf("simulated today %s (%s) for an activity the service keeps waiting", sim.Today.Outcome, sim.Today.Reason)
	}
	if sim.WithDraft.Outcome != api.OutcomeDenyExplicit || !sim.LocksOut {
		t.Errorf("with a deny draft on its resource: %s, locks out %v; want DENY_EXPLICIT, locked out", sim.WithDraft.Outcome, sim.LocksOut)
	}
}
