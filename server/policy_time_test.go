package server

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// addTimedPolicy creates a policy with a time expression through the 2-of-3
// quorum (alice submits, bob approves).
func (e *testEnv) addTimedPolicy(p api.CreatePolicyParams) string {
	e.t.Helper()
	ctx := ctxT(e.t)
	act, err := e.clients["alice"].CreatePolicy(ctx, p)
	if err != nil {
		e.t.Fatal(err)
	}
	done, err := e.clients["bob"].ApproveActivity(ctx, act.Fingerprint)
	if err != nil || done.Status != api.StatusCompleted {
		e.t.Fatalf("policy %s: %v %+v", p.PolicyName, err, done)
	}
	return done.Result.CreatePolicyResult.PolicyID
}

// A policy's time expression (the real service's v1Policy.time) is stored,
// returned by get_policy and list_policies, and decides when the policy
// applies, by the service's clock.
func TestPolicyTimeIsStoredReturnedAndEnforced(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	from := time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
	timeExpr := "time.now >= Timestamp('" + from + "')"
	id := e.addTimedPolicy(api.CreatePolicyParams{PolicyName: "sessions from in an hour", Effect: api.EffectAllow,
		Condition: "activity.type == 'ACTIVITY_TYPE_CREATE_READ_ONLY_SESSION'", Time: timeExpr, Notes: ""})

	got, err := e.clients["operator"].GetPolicy(ctx, id)
	if err != nil || got.Time != timeExpr {
		t.Fatalf("get_policy time = %q (%v), want %q", got.Time, err, timeExpr)
	}
	all, err := e.clients["operator"].ListPolicies(ctx)
	if err != nil || len(all) != 1 || all[0].Time != timeExpr {
		t.Fatalf("list_policies: %v %+v", err, all)
	}

	// Not active yet: nothing allows the session.
	act, err := e.clients["operator"].CreateReadOnlySession(ctx)
	if err != nil || act.Status != api.StatusFailed {
		t.Fatalf("a session before the policy's time: %v %+v", err, act)
	}
	evals, _ := e.clients["operator"].GetPolicyEvaluations(ctx, act.ID)
	if len(evals) == 0 || len(evals[0].PolicyEvaluations) != 1 || evals[0].PolicyEvaluations[0].Outcome != api.OutcomeTimeInactive {
		t.Fatalf("evaluations = %+v, want the policy %s", evals, api.OutcomeTimeInactive)
	}

	// Two hours later by the service's clock it applies.
	e.skew.Store(int64(2 * time.Hour))
	ahead, err := api.NewClient(e.http.URL, e.org.ID, e.keys["operator"], api.WithClock(func() time.Time { return time.Now().Add(2 * time.Hour) }))
	if err != nil {
		t.Fatal(err)
	}
	act, err = ahead.CreateReadOnlySession(ctx)
	if err != nil || act.Status != api.StatusCompleted {
		t.Fatalf("a session within the policy's time: %v %+v", err, act)
	}
}

// A time expression that does not compile is refused before anything is
// stored, naming parameters.time and the position.
func TestPolicyTimeThatDoesNotCompileIsRefused(t *testing.T) {
	e := newEnv(t)
	for _, c := range []struct{ time, want string }{
		{"time.now >=", "parameters.time: line 1"},
		{"activity.type == 'x'", "parameters.time: line 1, column 1"},
		{"CronSpan('* * * * *', '0s', 'UTC')", "parameters.time: line 1"},
	} {
		body := e.body(api.TypeCreatePolicyV3, map[string]any{"policyName": "p", "effect": api.EffectAllow, "notes": "", "time": c.time}, nil)
		r := e.post(e.submitPath("create_policy"), body, e.keys["alice"])
		var eb struct {
			Message string `json:"message"`
		}
		_ = json.Unmarshal(r.body, &eb)
		if r.status != 400 || !strings.Contains(string(r.body), "INVALID_POLICY") || !strings.Contains(eb.Message, c.want) {
			t.Errorf("time %q: %d %s, want 400 INVALID_POLICY with %q", c.time, r.status, r.body, c.want)
		}
	}
	if ps, err := e.clients["alice"].ListPolicies(ctxT(t)); err != nil || len(ps) != 0 {
		t.Errorf("a refused policy was stored: %v %+v", err, ps)
	}
}
