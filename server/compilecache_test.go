package server

import (
	"fmt"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
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
	before := e.srv.compiled.len()
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
	if got := e.srv.compiled.len() - before; got != 0 {
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
	budget := 2*compiledSize(longCondition("x", 300), "") + compiledSize(sessions, "")
	e.srv.compiled = newCompileCache(budget)

	e.addPolicy("sessions", api.EffectAllow, sessions, "")
	for i := range 5 {
		e.addPolicy(fmt.Sprint("long ", i), api.EffectAllow, longCondition(fmt.Sprint(i), 300), "")
		if used := e.srv.compiled.size(); used > budget {
			t.Fatalf("after %d long policies the cache keeps %d bytes (estimated), over its budget of %d", i+1, used, budget)
		}
	}
	if got := e.srv.compiled.len(); got > 3 {
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

// The cache key must tell apart texts that only differ in where the
// condition ends: a valid condition may contain any character, NUL too.
func TestCompileKeySeparatesConditionFromConsensus(t *testing.T) {
	pairs := [][2]string{{"a\x00", "b"}, {"a", "\x00b"}, {"a\x00\x00b", ""}, {"", "a\x00\x00b"}, {"1:a", ""}, {"", "1:a"}}
	seen := map[string][2]string{}
	for _, p := range pairs {
		k := compileKey(p[0], p[1])
		if prev, ok := seen[k]; ok {
			t.Errorf("condition %q, consensus %q and condition %q, consensus %q share the key %q", prev[0], prev[1], p[0], p[1], k)
		}
		seen[k] = p
	}
}
