package screens

import (
	"slices"
	"strings"

	"github.com/vigil-console/vigil/policy"
)

// othersWhoMayVote are the members, other than those in voted, the service
// would still offer the vote on the activity in describes (server/voters.go):
// root quorum members always; the others, on an activity that is not
// root-only, only when a matching allow policy asks for a consensus
// (policy.AwaitsConsensus). When finding that out runs out of its budget
// they count, as the service then offers them the vote. Sorted by id, the
// order the service asks about them in.
func othersWhoMayVote(ec evaluationContext, in policy.Input, rootOnly bool, voted map[string]bool) []policy.Approver {
	nonRoot := false
	if !rootOnly {
		awaits, exhausted := policy.AwaitsConsensus(ec.ordered, in)
		nonRoot = awaits || exhausted
	}
	var out []policy.Approver
	for id, m := range ec.members {
		if !voted[id] && (m.Root || nonRoot) {
			out = append(out, m)
		}
	}
	slices.SortFunc(out, func(x, y policy.Approver) int { return strings.Compare(x.ID, y.ID) })
	return out
}
