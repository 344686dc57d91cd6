package screens

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// requestCounter counts the requests a console makes through a proxy in
// front of the local service, by operation, with the activity ids of its
// get_policy_evaluations.
type requestCounter struct {
	mu      sync.Mutex
	calls   map[string]int
	evalIDs []string
}

func (rc *requestCounter) rewrite(op string, request, reply []byte) []byte {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	rc.calls[op]++
	if op == "query/get_policy_evaluations" {
		var body api.GetPolicyEvaluationsRequest
		_ = json.Unmarshal(request, &body)
		rc.evalIDs = append(rc.evalIDs, body.ActivityID)
	}
	return reply
}

// take returns what was counted since the last take, and starts again.
func (rc *requestCounter) take() (map[string]int, []string) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	calls, ids := rc.calls, rc.evalIDs
	rc.calls, rc.evalIDs = map[string]int{}, nil
	return calls, ids
}

// At a large organization each organization reload reads megabytes (every
// user), for every open console: a completion that cannot change what the
// console loads (a read-only session) reloads nothing; one that can (a
// policy) reloads the organization once, the Policies and Users screens
// take the users from that load rather than reading them again, and the
// recent evaluations of activities already decided are not read again.
// Against the local service, counting the console's requests.
func TestOrgReloadReadsOnlyWhatACompletionCanChange(t *testing.T) {
	d := servertest.StartDemo(t)
	ctx := context.Background()
	rc := &requestCounter{calls: map[string]int{}}
	h := memberConsole(t, d.ClientAt(d.Rewriting(rc.rewrite), "bob"))
	a := h.activities()
	p := h.toPolicies()
	h.key("e") // the recent evaluations
	h.gotoScreen("Users")
	h.gotoScreen("Activities")
	if !p.recentLoaded || len(p.data.recent) == 0 {
		t.Fatalf("set-up: the recent evaluations did not load:\n%s", h.frame())
	}
	var decided []string
	for _, ra := range p.data.recent {
		if api.IsTerminal(ra.act.Status) {
			decided = append(decided, ra.act.ID)
		}
	}
	if len(decided) == 0 {
		t.Fatal("set-up: no recent activity is decided")
	}
	h.run(a.load()) // the first look
	h.run(a.load())
	rc.take()

	if _, err := d.Client("operator").CreateReadOnlySession(ctx); err != nil {
		t.Fatalf("read-only session: %v", err)
	}
	h.run(a.load())
	calls, _ := rc.take()
	if calls["query/list_activities"] == 0 {
		t.Fatalf("set-up: the console did not look at the newest activities: %v", calls)
	}
	for _, op := range []string{"query/list_users", "query/list_policies", "query/get_organization_configs", "query/get_policy_evaluations"} {
		if calls[op] != 0 {
			t.Errorf("a completed read-only session made the console read %s %d times, want none (it changes nothing the console loads): %v", op, calls[op], calls)
		}
	}

	pol, err := d.Client("alice").CreatePolicy(ctx, api.CreatePolicyParams{PolicyName: "watched policy",
		Effect: api.EffectAllow, Condition: "activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG'",
		Consensus: "approvers.count() >= 1", Notes: "n"})
	if err == nil && pol.Status == api.StatusConsensusNeeded {
		pol, err = d.Client("bob").ApproveActivity(ctx, pol.Fingerprint)
	}
	if err != nil || pol.Status != api.StatusCompleted {
		t.Fatalf("create policy: %v %+v", err, pol)
	}
	h.run(a.load())
	calls, evalIDs := rc.take()
	for _, op := range []string{"query/list_users", "query/list_policies", "query/get_organization_configs"} {
		if calls[op] != 1 {
			t.Errorf("a completed create_policy made the console read %s %d times, want once (one organization reload): %v", op, calls[op], calls)
		}
	}
	if !slices.ContainsFunc(p.data.policies, func(x api.Policy) bool { return x.PolicyName == "watched policy" }) {
		t.Errorf("the Policies screen does not show the policy the reload read:\n%s", h.frame())
	}
	if !slices.Contains(evalIDs, pol.ID) {
		t.Errorf("the new activity's evaluations were not read: %v", evalIDs)
	}
	for _, id := range decided {
		if slices.Contains(evalIDs, id) {
			t.Errorf("the evaluations of %s, decided when last read, were read again (they are final)", id)
		}
	}
}
