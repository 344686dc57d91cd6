package screens

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
)

// The policy editor's simulation (and vigil policy simulate's: both are
// policy.SimulateActivity on what the console loads) against what the local
// service does once the draft exists. Each case submits an activity under
// the policies in force, simulates a random draft on it, creates the draft
// through the root quorum, and submits the same activity again: the service
// decides the new one at its submission as the simulation said the draft
// would decide the first.

// randomTimeExpr is one of the draft time expressions the test draws from,
// around the test's clock (2026-03-02, a Monday, from 12:00 UTC on).
func randomTimeExpr(rng *rand.Rand) string {
	switch rng.IntN(10) {
	case 0:
		return "time.now > Timestamp('2026-01-01T00:00:00Z')"
	case 1:
		return "time.now < Timestamp('2026-01-01T00:00:00Z')"
	case 2:
		return "CronSpan('0 12 * * *', '1h', 'UTC')"
	case 3:
		return "CronSpan('0 9 * * *', '1h', 'UTC')"
	case 4:
		return "CronSpan('0 7 * * 1', '6h', 'America/New_York')"
	case 5:
		return "!CronSpan('0 12 * * 1', '30m', 'UTC')"
	}
	return ""
}

// serviceClass is what the service did with an activity at its submission,
// as the simulation's outcomes name it: an activity that failed in
// execution (not PERMISSION_DENIED) was allowed by the policies.
func serviceClass(a *api.Activity) string {
	switch a.Status {
	case api.StatusCompleted:
		return api.OutcomeAllow
	case api.StatusConsensusNeeded:
		return api.OutcomeRequiresConsensus
	case api.StatusFailed:
		if a.Failure != nil && a.Failure.Code != api.CodePermissionDenied {
			return api.OutcomeAllow
		}
		return "FAILS"
	}
	return a.Status
}

// simulatedClass is a decision's outcome as serviceClass names the status.
func simulatedClass(d policy.Decision) string {
	if policy.Fails(d.Outcome) {
		return "FAILS"
	}
	return d.Outcome
}

// simulateAs is the editor's simulation of the draft over act, from what
// member i's console loads.
func (e *predEnv) simulateAs(o *predOrg, i int, actID string, draft api.CreatePolicyParams) policy.Simulation {
	e.t.Helper()
	ec, act := e.loadAs(o, i, actID)
	compiled, err := policy.CompileSource(policy.Source{Condition: draft.Condition, Consensus: draft.Consensus, Time: draft.Time})
	if err != nil {
		e.t.Fatalf("draft %+v: %v", draft, err)
	}
	draftP := policy.Policy{ID: "draft", Name: "draft: " + draft.PolicyName, Effect: draft.Effect, Compiled: compiled}
	return policy.SimulateActivity(ec.ordered, draftP, *act, ec.members, policy.QuorumOf(ec.quorum), e.now())
}

// TestPolicySimulationAgreesWithTheService: VIGIL_SIMULATION_SEEDS=n runs n
// further seeds (1000, 1001, …) after the fixed ones.
func TestPolicySimulationAgreesWithTheService(t *testing.T) {
	seeds := []uint64{1, 2}
	if s := os.Getenv("VIGIL_SIMULATION_SEEDS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			t.Fatalf("VIGIL_SIMULATION_SEEDS=%q: want a count of seeds, such as 20", s)
		}
		for i := range n {
			seeds = append(seeds, uint64(1000+i))
		}
	}
	e := newPredEnv(t)
	for _, seed := range seeds {
		t.Run(fmt.Sprintf("seed%d", seed), func(t *testing.T) {
			e.t = t
			checkSimulationsAgainstTheService(t, e, rand.New(rand.NewPCG(seed, 290)), 40)
		})
	}
}

func checkSimulationsAgainstTheService(t *testing.T, e *predEnv, rng *rand.Rand, cases int) {
	mismatches := map[string]int{}
	checked := 0
	for ci := range cases {
		e.advance(time.Duration(rng.IntN(90)) * time.Minute)
		roots, tags, nroots, thr := randomMembers(rng)
		n := len(roots)
		o := e.makeOrg(thr, roots, tags, func(i int) bool { return i%2 == 1 })
		desc := []string{fmt.Sprintf("case %d at %s: members %d, roots %d, threshold %d, tags %v (odd members sign with Ed25519)",
			ci, e.now().Format(time.RFC3339), n, nroots, thr, tags)}
		newPolicy := func(pi int) api.CreatePolicyParams {
			effect := api.EffectAllow
			if rng.IntN(10) < 4 {
				effect = api.EffectDeny
			}
			consensus := randomConsensus(rng, o, pi == 0)
			if rng.IntN(4) == 0 {
				consensus = randomCredentialConsensus(rng, o)
			}
			return api.CreatePolicyParams{PolicyName: fmt.Sprintf("p%d", pi), Effect: effect, Condition: randomCondition(rng, ci),
				Consensus: consensus, Time: randomTimeExpr(rng)}
		}
		npol := rng.IntN(4)
		for pi := range npol {
			p := newPolicy(pi)
			desc = append(desc, fmt.Sprintf("  policy %s %s condition %q consensus %q time %q%s", p.PolicyName, p.Effect, p.Condition, p.Consensus, p.Time, e.tryPolicy(ci, o, p)))
		}
		req := rng.IntN(n)
		kind := randomSubmission(rng)
		first, err := e.submit(o, req, kind, ci)
		if err != nil {
			t.Fatalf("case %d: submit %s: %v", ci, kind, err)
		}
		desc = append(desc, fmt.Sprintf("  m%d submits %s -> %s", req, kind, first.Status))
		// Approvals by others, which the simulation replays on an activity
		// that ended; on one still waiting, it decides the next approval.
		var voters []int
		for range rng.IntN(3) {
			v := rng.IntN(n)
			if first.Status != api.StatusConsensusNeeded || v == req || slices.Contains(voters, v) {
				continue
			}
			next, err := o.clients[v].ApproveActivity(e.ctx, first.Fingerprint)
			if err != nil {
				continue // NOT_A_VOTER
			}
			voters, first = append(voters, v), next
			desc = append(desc, fmt.Sprintf("  m%d approves -> %s", v, first.Status))
		}
		if first.Status == api.StatusConsensusNeeded && len(voters) > 0 {
			continue // the simulation decides its next approval: not a submission's decision
		}
		draft := newPolicy(npol)
		draft.PolicyName = "draft"
		desc = append(desc, fmt.Sprintf("  draft %s condition %q consensus %q time %q", draft.Effect, draft.Condition, draft.Consensus, draft.Time))
		sim := e.simulateAs(o, 0, first.ID, draft)
		if got, want := serviceClass(first), simulatedClass(sim.Today); got != want && sim.Waiting == "" {
			class := fmt.Sprintf("today: simulated %s, the service made it %s", want, got)
			if mismatches[class]++; mismatches[class] <= 2 {
				t.Errorf("%s (%s)\n%s", class, sim.Today.Reason, strings.Join(desc, "\n"))
			}
		}
		if msg := e.tryPolicy(ci, o, draft); msg != "" {
			continue // the policies in force did not let the draft be created
		}
		e.advance(time.Millisecond) // a new body (its timestamp), not the first again
		again, err := e.submit(o, req, kind, ci)
		if err != nil {
			t.Fatalf("case %d: submit %s again: %v", ci, kind, err)
		}
		if again.ID == first.ID {
			t.Fatalf("case %d: the second submission is the first activity again", ci)
		}
		for _, v := range voters {
			if again.Status != api.StatusConsensusNeeded {
				break
			}
			next, err := o.clients[v].ApproveActivity(e.ctx, again.Fingerprint)
			if err != nil {
				desc = append(desc, fmt.Sprintf("  with the draft: m%d may not approve: %v", v, err))
				break
			}
			again = next
			desc = append(desc, fmt.Sprintf("  with the draft: m%d approves -> %s", v, again.Status))
		}
		checked++
		desc = append(desc, fmt.Sprintf("  with the draft: m%d submits %s -> %s", req, kind, again.Status))
		got, want := serviceClass(again), simulatedClass(sim.WithDraft)
		if got != want {
			class := fmt.Sprintf("with draft: simulated %s, the service made it %s", want, got)
			if mismatches[class]++; mismatches[class] <= 2 {
				t.Errorf("%s (%s)\n%s", class, sim.WithDraft.Reason, strings.Join(desc, "\n"))
			}
			continue
		}
		e.comparePolicyOutcomes(o, again.ID, sim.WithDraft, desc, mismatches)
	}
	t.Logf("%d simulations checked against the service", checked)
	if checked < cases/3 {
		t.Errorf("only %d simulations checked against the service", checked)
	}
	for class, count := range mismatches {
		t.Errorf("%d mismatches of class %s", count, class)
	}
}

// comparePolicyOutcomes compares each policy's outcome in the service's
// deciding evaluation with the simulation's, the draft's included.
func (e *predEnv) comparePolicyOutcomes(o *predOrg, actID string, d policy.Decision, desc []string, mismatches map[string]int) {
	evals, err := o.clients[0].GetPolicyEvaluations(e.ctx, actID)
	if err != nil {
		e.t.Fatal(err)
	}
	if len(evals) == 0 {
		return
	}
	service := map[string]string{}
	// The last evaluation is the one that decided (the replay stops there).
	for _, po := range evals[len(evals)-1].PolicyEvaluations {
		service[po.PolicyID] = po.Outcome
	}
	pols, err := o.clients[0].ListPolicies(e.ctx)
	if err != nil {
		e.t.Fatal(err)
	}
	draftID := ""
	if i := slices.IndexFunc(pols, func(p api.Policy) bool { return p.PolicyName == "draft" }); i >= 0 {
		draftID = pols[i].PolicyID
	}
	for _, pd := range d.Details {
		id := pd.Policy.ID
		if id == "draft" {
			id = draftID
		}
		got, ok := service[id]
		if ok && got != pd.Outcome {
			class := fmt.Sprintf("policy outcome: simulated %s, the service %s", pd.Outcome, got)
			if mismatches[class]++; mismatches[class] <= 2 {
				e.t.Errorf("%s for %s\n%s", class, pd.Policy.Name, strings.Join(desc, "\n"))
			}
		}
	}
}
