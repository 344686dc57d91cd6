package screens

import (
	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
	"github.com/vigil-console/vigil/ui"
)

// credentialDoubt says why the console's reading of the policies may differ
// from the service's decision on act, or "" when it need not: an approval
// was cast with a key deleted since (the console finds a vote's credential
// among the voter's current keys; the service recorded it with the vote) and
// a policy reads which credential approved. The text is cleaned: names are
// quoted, ids sanitized.
func credentialDoubt(c *Common, act *api.Activity) string {
	return credentialDoubtOf(c, act, c.Org.Eval.ordered, c.Org.Eval.members)
}

// credentialDoubtOf is credentialDoubt with these policies (a simulation's
// adds the draft, which may be the one reading credentials) and members.
func credentialDoubtOf(c *Common, act *api.Activity, policies []policy.Policy, members map[string]policy.Approver) string {
	d := policy.DoubtOfVotes(policies, act.Votes, members)
	if !d.Uncertain() {
		return ""
	}
	return ui.Clean(d.Explain(func(userID string) string {
		if who := voterName(c, act, userID); who != "your" {
			return who
		}
		return "you"
	}, "the console"))
}
