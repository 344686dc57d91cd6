package screens

import (
	"context"
	"slices"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
)

// A copy of an activity read before its evaluations may lack a vote that
// landed between the two reads: only a vote missing from a copy read after
// them is one the service no longer returns (policy.ErrVoteNotReturned). The
// Activities detail and the Policies screen read their copy first, so they
// read it again, after the evaluations, when a vote is missing from it, as
// the CLI reads in that order.

// voteMissing reports whether the vote of one of evs is missing from a (the
// record would say it is not returned).
func voteMissing(a api.Activity, evs []api.PolicyEvaluation) bool {
	return slices.ContainsFunc(evs, func(e api.PolicyEvaluation) bool { return policy.StoredOutcome(a, e).NotReturned })
}

// readAfterEvaluations reads activity id again, after its evaluations were
// read; nil when the read fails or answers for another activity (the copy
// held is then kept).
func readAfterEvaluations(ctx context.Context, client Reader, id string) *api.Activity {
	a, err := client.GetActivity(ctx, id)
	if err != nil || a == nil || a.ID != id {
		return nil
	}
	return a
}
