package server_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
	"github.com/vigil-console/vigil/policy"
	"github.com/vigil-console/vigil/server/servertest"
)

// serviceOutcome is the final outcome the service decided for an activity,
// from its status and the per-policy outcomes of its last evaluation.
func serviceOutcome(a *api.Activity, last api.PolicyEvaluation) string {
	switch a.Status {
	case api.StatusCompleted:
		return api.OutcomeAllow
	case api.StatusConsensusNeeded, api.StatusPending:
		return api.OutcomeRequiresConsensus
	}
	for _, p := range last.PolicyEvaluations {
		if p.Outcome == api.OutcomeDenyExplicit {
			return api.OutcomeDenyExplicit
		}
	}
	return api.OutcomeDenyImplicit
}

// overCostLimit is a clause that passes the evaluation cost limit on any
// activity: a million steps over two constant lists.
var overCostLimit = "[" + strings.Repeat("1,", 999) + "1].all(a, [" + strings.Repeat("1,", 999) + "1].all(b, a + b > 0))"

type fidelityCase struct {
	name      string
	effect    string
	condition string
	consensus string
	submitter string   // who submits the activity
	approvers []string // who approves after, while the activity waits
	// kind is what is submitted: "" a create_user_tag, "sci" a
	// create_smart_contract_interface (no policy today), "policy" a
	// create_policy (an allow on wallets).
	kind string
	want string // the outcome with the draft
}

// TestSimulatorMatchesService: for each draft, an activity is submitted and
// voted on today; the simulator predicts from its records what the service
// will decide once the draft exists; then the draft is really created (the
// root quorum approves it) and the same activity submitted with the same
// votes. The service's decision and every policy's outcome must equal the
// prediction. Drafts on credentials check that the console, whose vote
// records carry only a public key, finds the key the service recorded.
func TestSimulatorMatchesService(t *testing.T) {
	const ops, operatorTag = "{ops}", "{operator}"
	cases := []fidelityCase{
		{"deny overrides today's waiting allow", api.EffectDeny, "activity.resource == 'USER'", "", "operator", nil, "", api.OutcomeDenyExplicit},
		{"allow with consensus met by the requester", api.EffectAllow, "activity.resource == 'USER'", "approvers.any(u, u.id == '{operator-id}')", "operator", nil, "", api.OutcomeAllow},
		{"one ops approver meets a count of one", api.EffectAllow, "activity.resource == 'USER'", "approvers.filter(u, u.tags.contains('" + ops + "')).count() >= 1", "operator", []string{"bob"}, "", api.OutcomeAllow},
		{"consensus counts: no ops approver yet", api.EffectAllow, "activity.resource == 'USER'", "approvers.filter(u, u.tags.contains('" + ops + "')).count() >= 1", "operator", nil, "", api.OutcomeRequiresConsensus},
		{"deny whose consensus is not met does not deny", api.EffectDeny, "activity.resource == 'USER'", "approvers.any(u, u.tags.contains('" + ops + "'))", "operator", nil, "", api.OutcomeRequiresConsensus},
		{"deny whose consensus is met wins over allow", api.EffectDeny, "activity.resource == 'USER'", "approvers.any(u, u.tags.contains('" + ops + "'))", "operator", []string{"bob"}, "", api.OutcomeDenyExplicit},
		{"root quorum bypasses a deny", api.EffectDeny, "activity.resource == 'USER'", "approvers.any(u, u.name == 'bob')", "alice", []string{"bob"}, "", api.OutcomeAllow},
		{"the same deny without the quorum", api.EffectDeny, "activity.resource == 'USER'", "approvers.any(u, u.name == 'bob')", "operator", []string{"bob"}, "", api.OutcomeDenyExplicit},
		{"expression error in an allow is ignored", api.EffectAllow, "activity.params.absent == 'x'", "", "operator", nil, "", api.OutcomeRequiresConsensus},
		{"expression error in a deny does not deny", api.EffectDeny, "activity.params.absent == 'x'", "", "operator", nil, "", api.OutcomeRequiresConsensus},
		{"allow for another resource does not apply", api.EffectAllow, "activity.resource == 'POLICY'", "", "operator", nil, "", api.OutcomeRequiresConsensus},
		{"tags: every approver tagged operator", api.EffectAllow, "activity.kind == 'CREATE_USER_TAG'", "approvers.all(u, u.tags.contains('" + operatorTag + "'))", "operator", nil, "", api.OutcomeAllow},
		{"no policy today, an allow makes it pass", api.EffectAllow, "activity.resource == 'SMART_CONTRACT_INTERFACE'", "", "operator", nil, "sci", api.OutcomeAllow},
		{"no policy today, a deny that does not match stays implicit", api.EffectDeny, "activity.resource == 'WALLET'", "", "operator", nil, "sci", api.OutcomeDenyImplicit},
		// A deny that runs out of its cost limit could still deny: the
		// activity waits for the root quorum, and the simulator says so.
		{"deny over its cost limit holds the activity", api.EffectDeny, "activity.resource == 'SMART_CONTRACT_INTERFACE' && " +
			overCostLimit, "", "operator", nil, "sci", api.OutcomeRequiresConsensus},
		{"deny naming the requester's API key", api.EffectDeny, "activity.resource == 'USER'", "credentials.any(c, c.id == '{operator-key-id}')", "operator", nil, "", api.OutcomeDenyExplicit},
		{"deny naming another API key does not deny", api.EffectDeny, "activity.resource == 'USER'", "credentials.any(c, c.id == '{bob-key-id}')", "operator", nil, "", api.OutcomeRequiresConsensus},
		// The service decides at the submission too: a deny that holds there
		// fails the activity before the later approvals it had today.
		{"deny at submission, before the root quorum completes", api.EffectDeny, "activity.resource == 'USER'", "", "alice", []string{"bob"}, "", api.OutcomeDenyExplicit},
		{"deny on create_policy at submission, before the root quorum completes", api.EffectDeny, "activity.resource == 'POLICY'", "", "alice", []string{"bob"}, "policy", api.OutcomeDenyExplicit},
		{"two-person deny fails a lone submission", api.EffectDeny, "activity.resource == 'USER'", "approvers.count() < 2", "operator", []string{"bob"}, "", api.OutcomeDenyExplicit},
		{"two-person deny with the root quorum at submission", api.EffectDeny, "activity.resource == 'USER'", "approvers.count() < 2", "alice", []string{"bob"}, "", api.OutcomeDenyExplicit},
		{"allow met at submission completes before later approvals", api.EffectAllow, "activity.resource == 'USER'", "approvers.any(u, u.id == '{operator-id}')", "operator", []string{"bob"}, "", api.OutcomeAllow},
		{"allow needing bob's API key by id and type", api.EffectAllow, "activity.resource == 'USER'",
			"credentials.any(c, c.id == '{bob-key-id}' && c.type == '" + api.CredentialAPIKeyP256 + "' && c.credential_id == '')", "operator", []string{"bob"}, "", api.OutcomeAllow},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { checkFidelity(t, i, tc) })
	}
}

func checkFidelity(t *testing.T, n int, tc fidelityCase) {
	ctx := context.Background()
	d := servertest.StartDemo(t)
	clients := map[string]*api.Client{}
	for _, m := range []string{"alice", "bob", "carol", "operator"} {
		clients[m] = d.Client(m)
	}
	reader := clients["alice"]
	users, err := reader.ListUsers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	replace := map[string]string{}
	for _, u := range users {
		replace["{"+u.UserName+"-id}"] = u.UserID
		// The key the member's client signs with: the demo gives some
		// members several, listed in no set order.
		if k, err := (keys.Store{Dir: d.KeysDir}).Load(u.UserName); err == nil {
			for _, ak := range u.APIKeys {
				if strings.EqualFold(ak.Credential.PublicKey, k.PublicKeyHex()) {
					replace["{"+u.UserName+"-key-id}"] = ak.APIKeyID
				}
			}
		}
		if u.UserName == "bob" {
			replace["{ops}"] = u.UserTags[0]
		}
		if u.UserName == "operator" {
			replace["{operator}"] = u.UserTags[0]
		}
	}
	expand := func(s string) string {
		for k, v := range replace {
			s = strings.ReplaceAll(s, k, v)
		}
		return s
	}
	cond, cons := expand(tc.condition), expand(tc.consensus)

	run := func(label string) *api.Activity {
		t.Helper()
		var a *api.Activity
		var err error
		switch tc.kind {
		case "sci":
			a, err = clients[tc.submitter].CreateSmartContractInterface(ctx, api.CreateSmartContractInterfaceParams{
				SmartContractAddress: "0x6B175474E89094C44Da98b954EedeAC495271d0F", SmartContractInterface: "[]",
				Type: "SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM", Label: fmt.Sprintf("abi %d %s", n, label)})
		case "policy":
			a, err = clients[tc.submitter].CreatePolicy(ctx, api.CreatePolicyParams{PolicyName: fmt.Sprintf("wallets %d %s", n, label),
				Effect: api.EffectAllow, Condition: "activity.resource == 'WALLET'"})
		default:
			a, err = clients[tc.submitter].CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: fmt.Sprintf("tag-%d-%s", n, label), UserIDs: []string{replace["{operator-id}"]}})
		}
		if err != nil {
			t.Fatalf("submit (%s): %v", label, err)
		}
		for _, who := range tc.approvers {
			if api.IsTerminal(a.Status) {
				// The service decided it before this vote (at its submission
				// or an earlier approval): the simulation must say so too.
				break
			}
			if a, err = clients[who].ApproveActivity(ctx, a.Fingerprint); err != nil {
				t.Fatalf("%s: %s approves: %v", label, who, err)
			}
		}
		return a
	}

	// Today, and the simulation over today's activity.
	today := run("today")
	recs, err := reader.ListPolicies(ctx)
	if err != nil {
		t.Fatal(err)
	}
	current, errs := policy.PoliciesOf(recs)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	cfg, err := reader.GetOrganizationConfigs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	draftC, err := policy.Compile(cond, cons)
	if err != nil {
		t.Fatalf("draft does not compile: %v", err)
	}
	if today, err = reader.GetActivity(ctx, today.ID); err != nil { // with its votes' records
		t.Fatal(err)
	}
	draft := policy.Policy{ID: "draft", Effect: tc.effect, Compiled: draftC}
	members, quorum := policy.Members(users, *cfg), policy.QuorumOf(cfg.Quorum)
	sim := policy.SimulateActivity(current, draft, *today, members, quorum, time.Now())
	// The fresh activity run after the draft exists is decided at its
	// submission and every approval: as an ended one is replayed. Today's,
	// when still waiting, is simulated at its next approval instead, so the
	// prediction for the fresh one is the replay.
	pred, predAt := sim.WithDraft, sim.WithDraftAt
	if today.Status == api.StatusConsensusNeeded {
		pred, predAt = policy.DecideVotes(append(slices.Clip(current), draft), *today, members, quorum)
	}
	evs, err := reader.GetPolicyEvaluations(ctx, today.ID)
	if err != nil || len(evs) == 0 {
		t.Fatalf("evaluations of today's activity: %v (%d)", err, len(evs))
	}
	if got := serviceOutcome(today, evs[len(evs)-1]); got != sim.Today.Outcome {
		t.Fatalf("today: the service decided %s, the simulator says %s (%s)", got, sim.Today.Outcome, sim.Today.Reason)
	}
	if pred.Outcome != tc.want {
		t.Errorf("simulator predicts %s (%s), the case expects %s", pred.Outcome, pred.Reason, tc.want)
	}

	// Really create the draft: alice proposes, bob completes the root quorum.
	created, err := clients["alice"].CreatePolicy(ctx, api.CreatePolicyParams{PolicyName: "draft " + tc.name, Effect: tc.effect, Condition: cond, Consensus: cons})
	if err != nil {
		t.Fatal(err)
	}
	if created, err = clients["bob"].ApproveActivity(ctx, created.Fingerprint); err != nil || created.Status != api.StatusCompleted {
		t.Fatalf("create the draft: %v (%v)", err, created)
	}
	after := run("after")
	evs, err = reader.GetPolicyEvaluations(ctx, after.ID)
	if err != nil || len(evs) == 0 {
		t.Fatalf("evaluations of the activity after the draft: %v (%d)", err, len(evs))
	}
	last := evs[len(evs)-1]
	if got := serviceOutcome(after, last); got != pred.Outcome {
		t.Errorf("with the draft: the service decided %s (%s), the simulator predicted %s %s (%s)", got, after.Status,
			pred.Outcome, predAt.Where(), pred.Reason)
	}
	// And at the same vote: the service ended it at its last vote recorded.
	if after, err = reader.GetActivity(ctx, after.ID); err != nil {
		t.Fatal(err)
	}
	at := slices.IndexFunc(today.Votes, func(v api.Vote) bool { return v.ID == predAt.Vote.ID })
	if api.IsTerminal(after.Status) && at+1 != len(after.Votes) {
		t.Errorf("with the draft the service ended it (%s) at vote %d of %d; the simulator at vote %d (%s)",
			after.Status, len(after.Votes), len(today.Votes), at+1, predAt.Where())
	}
	var gotOutcomes, wantOutcomes []string
	for _, p := range last.PolicyEvaluations {
		gotOutcomes = append(gotOutcomes, p.Outcome)
	}
	for _, p := range pred.Policies {
		wantOutcomes = append(wantOutcomes, p.Outcome)
	}
	if !slices.Equal(gotOutcomes, wantOutcomes) {
		t.Errorf("per-policy outcomes: service %v, simulator %v", gotOutcomes, wantOutcomes)
	}
}
