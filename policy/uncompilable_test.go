package policy

import (
	"regexp"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// A stored policy this vigil cannot compile fails closed, in the console's
// simulator (PoliciesOf) as in the service: an unreadable allow is left out
// (it could only allow more), an unreadable deny keeps what it might deny
// waiting for the root quorum rather than being dropped.
func TestUncompilableDenyPolicyFailsClosed(t *testing.T) {
	records := []api.Policy{
		{PolicyID: "allow-ops", Effect: api.EffectAllow, Condition: "activity.resource == 'USER'", Consensus: "approvers.any(u, u.tags.contains('ops'))"},
		{PolicyID: "deny-newer", Effect: api.EffectDeny, Condition: "newerFunction()"},
		{PolicyID: "allow-newer", Effect: api.EffectAllow, Condition: "newerFunction()"},
	}
	pols, errs := PoliciesOf(records)
	if len(errs) != 2 || !strings.Contains(errs[0].Error(), "deny-newer") || !strings.Contains(errs[1].Error(), "allow-newer") {
		t.Fatalf("errors %v, want one naming each policy that does not compile", errs)
	}
	var ids []string
	for _, p := range pols {
		ids = append(ids, p.ID)
	}
	if strings.Join(ids, ",") != "allow-ops,deny-newer" {
		t.Fatalf("policies %v, want the allow that compiles and the deny that does not", ids)
	}

	d := Decide(pols, input(alice), quorum, false)
	if d.Outcome == api.OutcomeAllow || !strings.Contains(d.Reason, "deny-newer") {
		t.Fatalf("with an unreadable deny, the allowed activity decides %s (%s); want it held, naming deny-newer", d.Outcome, d.Reason)
	}
	if d.Outcome != api.OutcomeRequiresConsensus {
		t.Fatalf("outcome %s, want %s: the root quorum can still decide", d.Outcome, api.OutcomeRequiresConsensus)
	}
	if d := Decide(pols, input(alice, root1, root3), quorum, false); d.Outcome != api.OutcomeAllow {
		t.Fatalf("the root quorum's approval decides %s (%s), want %s", d.Outcome, d.Reason, api.OutcomeAllow)
	}
}

// The reason an unreadable deny holds an activity names the policy and a
// remedy that exists: no submit operation deletes or changes a policy, so
// it must not tell anyone to do so.
func TestUnreadableDenyReasonGivesOnlyAPossibleRemedy(t *testing.T) {
	pols, _ := PoliciesOf([]api.Policy{
		{PolicyID: "allow-ops", Effect: api.EffectAllow, Condition: "activity.resource == 'USER'"},
		{PolicyID: "deny-newer", Effect: api.EffectDeny, Condition: "newerFunction()"},
	})
	d := Decide(pols, input(alice), quorum, false)
	if !strings.Contains(d.Reason, "deny-newer") || !strings.Contains(d.Reason, "root quorum") {
		t.Fatalf("reason %q: want it to name deny-newer and the root quorum that can still approve", d.Reason)
	}
	for _, op := range api.SubmitOperations() {
		if strings.Contains(op.Path, "policy") && (strings.Contains(op.Path, "delete") || strings.Contains(op.Path, "update")) {
			return // the advice to delete or replace it could then be followed
		}
	}
	if advice := regexp.MustCompile(`(delete|replace|update|change)( or \w+)? (it|the policy)`); advice.MatchString(d.Reason) {
		t.Fatalf("reason %q asks for %q, but no submit operation deletes or changes a policy", d.Reason, advice.FindString(d.Reason))
	}
	if !strings.Contains(d.Reason, "vigil") {
		t.Fatalf("reason %q does not say which vigil reads the policy", d.Reason)
	}
}
