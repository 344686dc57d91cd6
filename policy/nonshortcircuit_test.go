package policy

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// tkhq/docs features/policies/language.mdx (c8289df2), Appendix "Policy
// evaluation": "our policy engine does not short circuit during evaluation.
// In practice, this means that if any clause within the `condition` field of
// a policy results in an error, the evaluated `outcome` for that policy will
// be an error." An error on the side of && or || that does not decide the
// result must not be absorbed: a deny written so never denies on the real
// service, and an allow written so never allows.
func TestErroringClauseMakesThePolicyAnError(t *testing.T) {
	in := Input{Activity: ActivityFor(api.TypeDeleteAPIKeys, map[string]any{
		"userId": "u-2", "apiKeyIds": []any{"k-glass"}})}
	in.Approvers = []Approver{{ID: "u-1"}}
	in.Requester = "u-1"

	// A deny whose second clause errors (index 1 of a one-element list) is
	// OUTCOME_ERROR and does not deny: the allow decides.
	deny := mustPolicy(t, "deny-glass", api.EffectDeny,
		"activity.type == 'ACTIVITY_TYPE_DELETE_API_KEYS' && (activity.params.api_key_ids[0] == 'k-glass' || activity.params.api_key_ids[1] == 'k-glass')", "")
	allow := mustPolicy(t, "allow-deletes", api.EffectAllow, "activity.type == 'ACTIVITY_TYPE_DELETE_API_KEYS'", "")
	d := Decide([]Policy{deny, allow}, in, Quorum{Threshold: 1}, false)
	if d.Policies[0].Outcome != api.OutcomeError || d.Outcome != api.OutcomeAllow {
		t.Errorf("deny with an erroring clause: policy %s, final %s; want OUTCOME_ERROR for the policy, so the allow decides (OUTCOME_ALLOW)",
			d.Policies[0].Outcome, d.Outcome)
	}
	if !strings.Contains(d.Reason, "deny-glass") || d.Details[0].Err == nil {
		t.Errorf("the reason does not name the policy that failed, or no error is kept for the explanation: %q, %v", d.Reason, d.Details[0].Err)
	}

	// An allow whose erroring clause sits beside a true one allows nothing.
	allow2 := mustPolicy(t, "allow-single", api.EffectAllow,
		"activity.type == 'ACTIVITY_TYPE_DELETE_API_KEYS' && (activity.params.api_key_ids.count() == 1 || activity.params.api_key_ids[1] == 'k-temp')", "")
	d = Decide([]Policy{allow2}, in, Quorum{Threshold: 1}, false)
	if d.Outcome == api.OutcomeAllow || d.Policies[0].Outcome != api.OutcomeError {
		t.Errorf("allow with an erroring clause: policy %s, final %s; want OUTCOME_ERROR, so nothing allows",
			d.Policies[0].Outcome, d.Outcome)
	}
}

// TestNoConstructAbsorbsAnError: every way CEL would let a decided side
// absorb an error of the other (&&, ||, the ternary, negation of either, a
// loop that stops at the element that decides it) is an error, in the
// condition, the consensus and the time expression alike (one engine).
func TestNoConstructAbsorbsAnError(t *testing.T) {
	const bad = "activity.params.user_ids[5] == 'x'" // index out of range
	for _, cond := range []string{
		"true || " + bad,
		bad + " || true",
		"!(false && " + bad + ")",
		"true ? true : " + bad,
		"false ? " + bad + " : true",
		"activity.params.user_ids.any(u, u == 'u-alice' || " + bad + ")",
		"[1, 2].any(x, x == 1 || activity.params.user_ids[x + 4] == 'y')",  // the first element decides
		"![1, 2].all(x, x == 2 && activity.params.user_ids[x + 4] == 'y')", // the first element decides
		"[1, 2].exists_one(x, x == 1 || activity.params.user_ids[x + 4] == 'y')",
		"[1, 2].filter(x, x == 1 || activity.params.user_ids[x + 4] == 'y').count() == 1",
		"size(activity.params.user_ids) / 0 == 1 || true",                   // division by zero
		"activity.params.user_ids == activity.params.user_tag_name || true", // strict equality's type error
	} {
		p := mustPolicy(t, "p", api.EffectAllow, cond, "")
		d := Decide([]Policy{p}, input(alice), quorum, false)
		if d.Policies[0].Outcome != api.OutcomeError || d.Outcome == api.OutcomeAllow {
			t.Errorf("%s: policy %s, final %s; want OUTCOME_ERROR, which allows nothing", cond, d.Policies[0].Outcome, d.Outcome)
		}
	}

	// The consensus: a true side does not absorb the other's error either.
	p := mustPolicy(t, "p", api.EffectAllow, "", "approvers.any(u, u.id == 'u-alice') || approvers[3].id == 'u-bob'")
	if d := Decide([]Policy{p}, input(alice), quorum, false); d.Policies[0].Outcome != api.OutcomeError {
		t.Errorf("consensus with an erroring clause: policy %s, want OUTCOME_ERROR", d.Policies[0].Outcome)
	}
	// The time expression too.
	c, err := CompileSource(Source{Time: "time.now > Timestamp('2000-01-01T00:00:00Z') || [1][3] == 1"})
	if err != nil {
		t.Fatal(err)
	}
	in := input(alice)
	in.Now = time.Date(2026, 3, 18, 15, 0, 0, 0, time.UTC)
	if _, err := c.Run(in); err == nil {
		t.Errorf("a time expression with an erroring clause evaluated without error")
	}
}

// TestStrictEvaluationKeepsWhatIsNotAnError: has() on an absent field is a
// presence test (false), not an error; a condition whose clauses all
// evaluate gives the same result as before; a keyword the activity lacks
// still makes the policy not apply (DENY_IMPLICIT, named), even beside an
// erroring clause, and inside a loop body even after a clause that decides.
func TestStrictEvaluationKeepsWhatIsNotAnError(t *testing.T) {
	for cond, want := range map[string]string{
		"has(activity.params.absent) || activity.resource == 'USER'":            api.OutcomeAllow,
		"!has(activity.params.absent) && activity.params.user_ids.count() == 2": api.OutcomeAllow,
		"has(wallet.id) || activity.resource == 'USER'":                         api.OutcomeAllow,
		"activity.params.user_ids.all(u, u.startsWith('u-')) ? true : false":    api.OutcomeAllow,
		"activity.params.user_ids.filter(u, u == 'u-bob').count() == 1":         api.OutcomeAllow,
		"activity.params.user_ids.exists_one(u, u == 'u-bob')":                  api.OutcomeAllow,
		"activity.params.user_ids.map(u, u + '!')[1] == 'u-bob!'":               api.OutcomeAllow,
		"activity.params.user_ids.all(u, u == 'u-alice')":                       api.OutcomeDenyImplicit,
		"false && activity.resource == 'USER'":                                  api.OutcomeDenyImplicit,
	} {
		d := Decide([]Policy{mustPolicy(t, "p", api.EffectAllow, cond, "")}, input(alice), quorum, false)
		if d.Policies[0].Outcome != want {
			t.Errorf("%s: %s (%s), want %s", cond, d.Policies[0].Outcome, d.Reason, want)
		}
	}

	for _, cond := range []string{
		"activity.params.user_ids[5] == 'x' || wallet.label == 'w'",
		"activity.params.user_ids.any(u, u == 'u-alice' || wallet.label == 'w')",
	} {
		d := Decide([]Policy{mustPolicy(t, "p", api.EffectDeny, cond, "")}, input(alice), quorum, false)
		if d.Policies[0].Outcome != api.OutcomeDenyImplicit || !slices.Contains(d.Details[0].Result.Missing, varWallet) {
			t.Errorf("%s: %s, missing %v; want DENY_IMPLICIT for the wallet the activity lacks", cond, d.Policies[0].Outcome, d.Details[0].Result.Missing)
		}
	}
}
