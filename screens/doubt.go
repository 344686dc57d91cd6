package screens

import (
	"strings"

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
	ec := c.Org.Eval
	d := policy.DoubtOfVotes(ec.ordered, act.Votes, ec.members)
	if !d.Uncertain() {
		return ""
	}
	var voters []string
	for _, v := range d.Lost {
		who := voterName(c, act, v.UserID)
		if who == "your" {
			who = "you"
		}
		voters = append(voters, who)
	}
	var readers []string
	for _, p := range d.Readers {
		readers = append(readers, policyLabel(policy.PolicyLine{ID: p.ID, Name: p.Name}))
	}
	noun := "policy "
	if len(readers) > 1 {
		noun = "policies "
	}
	return ui.Clean("uncertain: " + strings.Join(voters, ", ") + " approved with a key deleted since, and " + noun +
		strings.Join(readers, ", ") + " reads which credential approved; the service still knows that key, " +
		"the console does not, so the service may decide otherwise")
}
