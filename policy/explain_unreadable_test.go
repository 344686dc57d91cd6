package policy

import (
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// An activity held because a stored deny cannot be compiled waits for the
// root quorum alone: the explanation names that deny and asks no allow
// policy's voter for an approval that would change nothing.
func TestExplainNamesUnreadableDenyThatHoldsTheActivity(t *testing.T) {
	records := []api.Policy{
		{PolicyID: "deny-newer", PolicyName: "Newer deny", Effect: api.EffectDeny, Condition: "newerFunction()"},
		{PolicyID: "two-ops", PolicyName: "Two ops", Effect: api.EffectAllow, Condition: "activity.resource == 'USER'",
			Consensus: "approvers.filter(u, u.tags.contains('ops')).count() >= 2"},
	}
	pols, _ := PoliciesOf(records)
	in := input(alice)
	d := Decide(pols, in, quorum, false)
	if d.Outcome != api.OutcomeRequiresConsensus {
		t.Fatalf("outcome %s (%s), want the activity held", d.Outcome, d.Reason)
	}
	withBob := in
	withBob.Approvers = []Approver{alice, bob}
	if after := Decide(pols, withBob, quorum, false); after.Outcome == api.OutcomeAllow {
		t.Fatalf("bob's approval allows it (%s): the test's premise is gone", after.Reason)
	}
	for _, why := range []string{Explain(d).Why, ExplainWith(d, in, []Approver{bob, carol}).Why} {
		if !strings.Contains(why, "Newer deny") || !strings.Contains(why, "root quorum") {
			t.Errorf("why line %q does not say the unreadable deny holds it for the root quorum", why)
		}
		if strings.Contains(why, "Two ops") || strings.Contains(why, "more approval") {
			t.Errorf("why line %q asks for approvals that cannot complete it", why)
		}
	}
	if dec := Decider(d); !strings.Contains(dec, "Newer deny") || strings.Contains(dec, "Two ops") {
		t.Errorf("decided by %q: want the root quorum, held by the unreadable deny", dec)
	}
}

// The waiting line names as the approval that would complete the activity
// only members whose approval makes the whole decision ALLOW, not one whose
// approval makes a deny apply.
func TestWaitingLineNamesOnlyApproversWhoAllow(t *testing.T) {
	twoOps := mustPolicy(t, "two-ops", api.EffectAllow, "activity.resource == 'USER'", "approvers.filter(u, u.tags.contains('ops')).count() >= 2")
	twoOps.Name = "Two ops"
	noBob := mustPolicy(t, "no-bob", api.EffectDeny, "", "approvers.exists(u, u.id == 'u-bob')")
	noBob.Name = "Never bob"
	dave := Approver{ID: "u-dave", Name: "dave", Tags: []string{"ops"}}
	pols := []Policy{twoOps, noBob}
	in := input(alice)
	d := Decide(pols, in, quorum, false)
	candidates := []Approver{bob, carol, dave}
	why := ExplainWith(d, in, candidates).Why
	for _, c := range candidates {
		with := in
		with.Approvers = []Approver{alice, c}
		after := Decide(pols, with, quorum, false)
		named := strings.Contains(why, api.Quote(c.Name))
		if named != (after.Outcome == api.OutcomeAllow) {
			t.Errorf("why line %q names %s: %v, but %s's approval gives %s (%s)", why, c.Name, named, c.Name, after.Outcome, after.Reason)
		}
	}
}
