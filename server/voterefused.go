package server

import (
	"context"
	"errors"

	"github.com/vigil-console/vigil/api"
)

// voteRefused asks, before c's vote on a is counted, whether the request
// whose fingerprint is bodyFP is that vote again (again: the caller answers
// with a as it is) or a vote the service refuses (err): a second vote in the
// round, a vote on an activity no longer waiting, by a user who may not
// vote (mayVote false), or with a key that voted in the round as another
// user. approve_activity, reject_activity and an approval
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
	if other, ok := a.otherVoterWithKey(c); ok {
		return false, forbiddenf("KEY_ALREADY_VOTED", "the key that signed this request already voted on activity %s as user %s, and one key votes once on an activity whichever user it is registered to; vote with a key pair of your own (create one and register it), and remove the shared key from one of the two users", a.ID, other)
	}
	return false, nil
}

// sameBodyRefused is the refusal of a submission whose body is byte for
// byte another user's activity (same parameters, same timestampMs: two
// users in one millisecond), when refused (voteRefused) as a vote on it:
// the activity has ended (NOT_VOTABLE), the caller may not vote on it
// (NOT_A_VOTER) or already voted on it otherwise (ALREADY_VOTED). The
// identical body is that user's approval (DESIGN.md §4), so it keeps the
// status and code approve_activity's refusal has, but the message says what
// happened: the caller asked for something of their own, nothing was
// recorded, and a fresh timestampMs makes it a new activity. Any other
// error is returned as it is.
func sameBodyRefused(refused error, a *activity) error {
	var e *Error
	if !errors.As(refused, &e) {
		return refused
	}
	var why string
	switch e.ErrorCode {
	case "NOT_VOTABLE":
		why = "it no longer takes votes"
	case "NOT_A_VOTER":
		why = "you may not vote on it"
	case "ALREADY_VOTED":
		why = "you already voted on it with another request"
	case "KEY_ALREADY_VOTED":
		why = "the key that signed it already voted on it as another user"
	default:
		return refused
	}
	return newError(e.Status, e.Code, e.ErrorCode, "a request with exactly this body (the same parameters and timestampMs) was already submitted by another user as activity %s, which is now %s; an identical body counts as your approval of that activity, and %s, so nothing was recorded; send the request again with a new timestampMs to make a new activity",
		a.ID, a.Status, why)
}
