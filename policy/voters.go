package policy

import (
	"slices"
	"strings"
)

// OthersWhoMayVote are the members, other than those in voted, the service
// would offer the vote on the activity in describes, at in's time
// (server/voters.go): root quorum members always; the others, on an activity
// that is not rootOnly, only when a matching allow policy asks for a
// consensus (AwaitsConsensus). When finding that out runs out of its budget
// they count, as the service then offers them the vote. Anyone else would be
// refused (NOT_A_VOTER), so they can approve nothing. Sorted by id, the order
// the service asks about them in.
func OthersWhoMayVote(policies []Policy, members map[string]Approver, in Input, rootOnly bool, voted map[string]bool) []Approver {
	nonRoot := false
	if !rootOnly {
		awaits, exhausted := AwaitsConsensus(policies, in)
		nonRoot = awaits || exhausted
	}
	var out []Approver
	for id, m := range members {
		if !voted[id] && (m.Root || nonRoot) {
			out = append(out, m)
		}
	}
	slices.SortFunc(out, func(x, y Approver) int { return strings.Compare(x.ID, y.ID) })
	return out
}
