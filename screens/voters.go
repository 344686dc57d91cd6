package screens

import "github.com/vigil-console/vigil/policy"

// othersWhoMayVote are the members, other than those in voted, the service
// would still offer the vote on the activity in describes: the one rule,
// policy.OthersWhoMayVote, over the organization's policies as loaded.
func othersWhoMayVote(ec evaluationContext, in policy.Input, rootOnly bool, voted map[string]bool) []policy.Approver {
	return policy.OthersWhoMayVote(ec.ordered, ec.members, in, rootOnly, voted)
}
