package server

import (
	"fmt"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
)

// longCondition is a distinct condition of about n clauses (12 KiB for 300).
func longCondition(tag string, n int) string {
	parts := make([]string, 0, n)
	for j := range n {
		parts = append(parts, fmt.Sprintf("activity.type == 'T%s_%d'", tag, j))
	}
	return strings.Join(parts, " || ")
}

// TestDeniedPolicySubmissionsDoNotFillTheCompileCache: the audit's attack. A
// member whom no policy allows anything submitted distinct long policies and
// MFA policies; each was denied, yet its compiled program (about 250 KiB)
// stayed in the server-wide cache for good.
func TestDeniedPolicySubmissionsDoNotFillTheCompileCache(t *testing.T) {
	e := newEnv(t)
	before := e.srv.compiled.Len()
	const n = 10
	for i := range n {
		policyBody := e.body(api.TypeCreatePolicyV3, map[string]any{"policyName": fmt.Sprint("p", i), "effect": api.EffectAllow,
			"notes": "", "condition": longCondition(fmt.Sprint("p", i), 300)}, nil)
		mfaBody := e.body(api.TypeCreateMfaPolicy, mfaParams(e.user("operator"), longCondition(fmt.Sprint("m", i), 300)), nil)
		for _, s := range []struct {
			op   string
			body []byte
		}{{"create_policy", policyBody}, {"create_mfa_policy", mfaBody}} {
			r := e.post(e.submitPath(s.op), s.body, e.keys["operator"])
			if r.status != 200 || r.act.Status != api.StatusFailed {
				t.Fatalf("%s %d: %d %s %s", s.op, i, r.status, r.act.Status, r.body)
			}
		}
	}
	if got := e.srv.compiled.Len() - before; got != 0 {
		t.Errorf("%d denied policy and MFA policy submissions left %d compiled programs in the server-wide cache", 2*n, got)
	}
}

// TestCompileCacheStaysWithinItsBudget: however many distinct policies the
// organizations store, the cache keeps no more than its budget, and a policy
// whose program was evicted is compiled again and still decides activities.
func TestCompileCacheStaysWithinItsBudget(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	sessions := "activity.type == 'ACTIVITY_TYPE_CREATE_READ_ONLY_SESSION'"
	// Room for about two long policies: every reload evicts.
	budget := 2*policy.CompiledSize(policy.Source{Condition: longCondition("x", 300)}) + policy.CompiledSize(policy.Source{Condition: sessions})
	e.srv.compiled = policy.NewCompileCache(budget)

	e.addPolicy("sessions", api.EffectAllow, sessions, "")
	for i := range 5 {
		e.addPolicy(fmt.Sprint("long ", i), api.EffectAllow, longCondition(fmt.Sprint(i), 300), "")
		if used := e.srv.compiled.Size(); used > budget {
			t.Fatalf("after %d long policies the cache keeps %d bytes (estimated), over its budget of %d", i+1, used, budget)
		}
	}
	if got := e.srv.compiled.Len(); got > 3 {
		t.Errorf("the cache keeps %d programs; its budget holds at most 3", got)
	}
	act, err := e.clients["operator"].CreateReadOnlySession(ctx)
	if err != nil || act.Status != api.StatusCompleted {
		t.Fatalf("session allowed by a policy evicted from the cache: %v %+v", err, act)
	}
	e.addPolicy("no operator sessions", api.EffectDeny, sessions, "approvers.any(u, u.id == '"+e.user("operator")+"')")
	for i := range 3 {
		e.addPolicy(fmt.Sprint("more ", i), api.EffectAllow, longCondition(fmt.Sprint("more", i), 300), "")
	}
	act, err = e.later("operator").CreateReadOnlySession(ctx)
	if err != nil || act.Status != api.StatusFailed {
		t.Fatalf("session denied by a policy evicted from the cache: %v %+v", err, act)
	}
}
