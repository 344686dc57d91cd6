package policy

import (
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// A DENY that runs out of its cost limit (a costly loop over a long
// parameter, which the submitter sizes) is not ignored: it could still deny,
// so an ALLOW that applies does not decide, the decision is undecided
// (REQUIRES_CONSENSUS: the root quorum decides), and its explanations say
// so. Its own outcome stays OUTCOME_ERROR.
func TestDenyOverCostLimitLeavesTheDecisionUndecided(t *testing.T) {
	deny, err := Compile("['a', 'b', 'c', 'd'].exists(w, activity.params.user_id.contains(w + 'x'))", "")
	if err != nil {
		t.Fatal(err)
	}
	allow, err := Compile("activity.type == 'ACTIVITY_TYPE_DELETE_API_KEYS'", "")
	if err != nil {
		t.Fatal(err)
	}
	policies := []Policy{{ID: "allow-all", Effect: api.EffectAllow, Compiled: allow}, {ID: "deny-x", Name: "deny x", Effect: api.EffectDeny, Compiled: deny}}
	in := longParam(1 << 20)
	d := Decide(policies, in, Quorum{Threshold: 2}, false)
	if d.Policies[1].Outcome != api.OutcomeError || d.Policies[0].Outcome != api.OutcomeAllow {
		t.Fatalf("outcomes %+v; the test needs the deny over its cost limit and the allow applying", d.Policies)
	}
	if d.Outcome != api.OutcomeRequiresConsensus {
		t.Errorf("decision %s (%s); want REQUIRES_CONSENSUS: the deny not judged could still deny", d.Outcome, d.Reason)
	}
	if !strings.Contains(d.Reason, "undecided") || !strings.Contains(d.Reason, "deny-x") {
		t.Errorf("reason %q does not say the decision is undecided because of deny-x", d.Reason)
	}
	e := ExplainWith(d, in, []Approver{{ID: "u2", Name: "bob"}})
	if !strings.Contains(e.Why, "undecided") || !strings.Contains(e.Why, "root quorum") || strings.Contains(e.Why, "bob") {
		t.Errorf("explanation %q; want it undecided, held for the root quorum, naming no voter", e.Why)
	}
	if got := Decider(d); !strings.Contains(got, "root quorum") {
		t.Errorf("decided by %q, want the root quorum", got)
	}

	// Other errors keep their meaning: a deny reading an absent parameter
	// neither allows nor denies.
	absent, err := CompileStored(Source{Condition: "activity.params.absent == 'x'"})
	if err != nil {
		t.Fatal(err)
	}
	policies[1].Compiled = absent
	if d := Decide(policies, in, Quorum{Threshold: 2}, false); d.Policies[1].Outcome != api.OutcomeError || d.Outcome != api.OutcomeAllow {
		t.Errorf("with a deny reading an absent parameter: %s (%+v), want ALLOW", d.Outcome, d.Policies)
	}
}
