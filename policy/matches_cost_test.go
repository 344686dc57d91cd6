package policy

import (
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// longParam is a delete_api_keys activity whose userId is n characters.
func longParam(n int) Input {
	return Input{Activity: ActivityFor(api.TypeDeleteAPIKeys, map[string]any{"userId": strings.Repeat("ab", n/2), "apiKeyIds": []any{"k1"}}),
		Approvers: []Approver{{ID: "u1"}}}
}

// A matches() whose work passes the cost limit is stopped before it runs, not
// charged once done: a pattern read from the activity (stored before
// submissions refused one) made one call run for a second on a 10,000-
// character parameter, and for minutes on a longer one, in the service's
// single writer; a short constant pattern that compiles to a large program
// ([a-z]{1000}) was charged by its 11 characters. The decision's work stays
// within what docs/policy-language.md promises (its budget plus one
// expression), and the call is the cost-limit error.
func TestMatchesIsStoppedBeforeItPassesTheCostLimit(t *testing.T) {
	for _, cond := range []string{
		"activity.params.user_id.matches(activity.params.user_id)",
		"matches(activity.params.user_id, activity.params.user_id)",
		"activity.params.user_id.matches('[a-z]{1000}x')",
	} {
		c, err := CompileStored(Source{Condition: cond})
		if err != nil {
			t.Fatal(err)
		}
		in := longParam(10_000)
		if _, err := c.Run(in); err == nil || !strings.Contains(err.Error(), "cost limit") {
			t.Errorf("%s on 10,000 characters: %v, want the cost-limit error", cond, err)
		}
		d := Decide([]Policy{{ID: "p", Effect: api.EffectDeny, Compiled: c}}, in, Quorum{Threshold: 2}, false)
		if d.Work > CostLimit {
			t.Errorf("%s: the decision did %d units of work; one expression may do %d", cond, d.Work, CostLimit)
		}
		if d.Exhausted || d.Policies[0].Outcome != api.OutcomeError {
			t.Errorf("%s: %+v; want the deny judged, OUTCOME_ERROR", cond, d)
		}
	}
}

// A submitted policy may only match a string literal: a pattern from the
// activity, or computed, is refused at compile time, at the pattern. A
// stored one still compiles (CompileStored), guarded at evaluation.
func TestMatchesPatternMustBeALiteral(t *testing.T) {
	for _, cond := range []string{
		"activity.params.user_id.matches(activity.params.user_id)",
		"matches(activity.params.user_id, activity.params.user_id)",
		"activity.params.user_id.matches('^' + activity.params.user_id)",
	} {
		_, err := Compile(cond, "")
		var e *ExprError
		if !asExprError(err, &e) || !strings.Contains(e.Message, "string literal") {
			t.Errorf("%s: %v; want it refused, asking for a string literal", cond, err)
			continue
		}
		if at := strings.LastIndex(cond, "activity.params.user_id)"); e.Column != at+1 && !strings.Contains(cond, "'^'") {
			t.Errorf("%s: refused at column %d, want the pattern's (%d)", cond, e.Column, at+1)
		}
		if _, err := CompileStored(Source{Condition: cond}); err != nil {
			t.Errorf("%s stored: %v; want it readable", cond, err)
		}
	}
}

// An ordinary matches() still matches, constant pattern or computed.
func TestMatchesStillMatches(t *testing.T) {
	in := Input{Activity: ActivityFor(api.TypeDeleteAPIKeys, map[string]any{"userId": "u-123", "apiKeyIds": []any{"k1"}})}
	for cond, want := range map[string]bool{
		"activity.params.user_id.matches('^u-[0-9]+$')":            true,
		"activity.params.user_id.matches('^k-')":                   false,
		"matches(activity.params.user_id, '[0-9]{3}')":             true,
		"activity.params.user_id.matches(activity.params.user_id)": true,
	} {
		c, err := CompileStored(Source{Condition: cond})
		if err != nil {
			t.Fatal(err)
		}
		if r, err := c.Run(in); err != nil || r.Condition != want {
			t.Errorf("%s: %v, %v; want %v", cond, r.Condition, err, want)
		}
	}
	if _, err := CompileStored(Source{Condition: "activity.params.user_id.matches('(')"}); err == nil {
		t.Error("a constant pattern that is not a regular expression compiled")
	}
}

// String contains and concatenation on a parameter (dyn, so CEL cannot
// resolve their overloads) cost what docs/policy-language.md says CEL's
// string functions cost, a tenth of a unit per byte scanned or copied, not
// one unit: a loop over them reaches the cost limit instead of running on.
func TestStringWorkOnAParameterIsCharged(t *testing.T) {
	const n = 100_000
	for _, cond := range []string{
		"activity.params.user_id.contains('q')",
		"activity.params.user_id + activity.params.user_id != ''",
	} {
		c := mustCompile(t, cond, "")
		d := Decide([]Policy{{ID: "p", Effect: api.EffectDeny, Compiled: c}}, longParam(n), Quorum{Threshold: 2}, false)
		if d.Work < n/10 {
			t.Errorf("%s on %d bytes cost %d units; want at least %d (a tenth of a unit per byte)", cond, n, d.Work, n/10)
		}
	}
}
