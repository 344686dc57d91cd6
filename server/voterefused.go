package server

import (
	"context"
	"errors"

	"github.com/vigil-console/vigil/api"
)

// voteRefused asks, before c's vote on a is counted, whether the request
// whose fingerprint is bodyFP is that vote again (again: the caller answers
// with a as it is) or a vote the service refuses (err): a second vote in the
// round, a vote on an activity no longer waiting, or by a user who may not
// vote (mayVote false). approve_activity, reject_activity and an approval
// by resending the submission (submit) all answer through it, alike.
func voteRefused(ctx context.Context, tx *txn, a *activity, c *caller, bodyFP string, mayVote bool) (again bool, err error) {
	if prev, voted := a.voteBy(c.UserID); voted {
		if prev.BodyFingerprint == bodyFP {
			return true, nil // this very request again: idempotent
		}
		what := "approved"
		if prev.Vote.Selection == api.VoteRejected {
			what = "rejected"
		}
		if a.RequesterID == c.UserID && prev.BodyFingerprint == a.Fingerprint {
			return false, conflictf("ALREADY_VOTED", "you already approved activity %s: submitting it counted as your approval", a.ID)
		}
		return false, conflictf("ALREADY_VOTED", "you already %s activity %s; each user votes once", what, a.ID)
	}
	// The same request cast in a round that has ended (a retry after a
	// lost reply, or a replay within the stamp's window, landing past
	// the round's end) is that vote again, not a new one: one signed
	// approval never counts in two rounds.
	if again, err := castEarlier(ctx, tx, a.ID, c.UserID, bodyFP); err != nil || again {
		return again, err
	}
	if a.Status != api.StatusConsensusNeeded {
		return false, preconditionf("NOT_VOTABLE", "activity %s is %s; only activities in %s can be approved or rejected", a.ID, a.Status, api.StatusConsensusNeeded)
	}
	if !mayVote {
		return false, notAVoter(a)
	}
	return false, nil
}

// sameBodyEnded is the refusal of a submission whose body is byte for byte
// another user's ended activity (same parameters, same timestampMs: two
// users in one millisecond), when refused (voteRefused) as a vote on it that
// came too late. The identical body is that user's approval (DESIGN.md §4),
// so it stays refused as approve_activity's NOT_VOTABLE is, but the message
// says what happened: the caller asked for something of their own, nothing
// was recorded, and a fresh timestampMs makes it a new activity. Any other
// refusal is returned as it is.
func sameBodyEnded(refused error, a *activity) error {
	var e *Error
	if !errors.As(refused, &e) || e.ErrorCode != "NOT_VOTABLE" {
		return refused
	}
	return preconditionf("NOT_VOTABLE", "a request with exactly this body (the same parameters and timestampMs) was already submitted by another user as activity %s, which is now %s; an identical body counts as your approval of that activity, and it no longer takes votes, so nothing was recorded; send the request again with a new timestampMs to make a new activity",
		a.ID, a.Status)
}
