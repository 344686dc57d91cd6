package screens

import (
	"context"
	"errors"
	"fmt"
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
// read. When the read fails or answers for another activity, the copy held
// is kept, and the error says why: a vote missing from that copy, read
// before the evaluations, is then of unknown status (unknownVote), never
// "not returned".
func readAfterEvaluations(ctx context.Context, client Reader, id string) (*api.Activity, error) {
	a, err := client.GetActivity(ctx, id)
	switch {
	case err != nil:
	case a == nil:
		err = errors.New("no activity in the reply")
	case a.ID != id:
		err = fmt.Errorf("the reply is about another activity, %s", api.SanitizeID(a.ID))
	default:
		return a, nil
	}
	return nil, fmt.Errorf("could not read the activity again after its evaluations: %w", err)
}

// unknownVote is ex, the explanation of an evaluation whose vote is missing
// from a copy of the activity read before the evaluations, when the read
// after them failed (why): the vote may be one cast between the reads, so it
// is not called not returned, and the copy's status (still waiting, say)
// says nothing of what it did.
func unknownVote(ex explained, why string) explained {
	ex.Differs, ex.Outcome = true, ""
	ex.Why = "status of its vote unknown: the vote is not in the copy of the activity read before the evaluations, and " + why +
		"; shown as the service stored it, not decided again"
	return ex
}

// explainedAfter is ex, the explanation of e on a, or unknownVote's when e's
// vote is missing from a and the read after the evaluations failed (rereadErr
// is not "").
func explainedAfter(ex explained, a api.Activity, e api.PolicyEvaluation, rereadErr string) explained {
	if rereadErr != "" && policy.StoredOutcome(a, e).NotReturned {
		return unknownVote(ex, rereadErr)
	}
	return ex
}
