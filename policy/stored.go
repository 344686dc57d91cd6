package policy

import (
	"errors"
	"time"

	"github.com/vigil-console/vigil/api"
)

// ErrEarlierRound is why a stored evaluation cannot be re-decided: its vote
// is of an earlier 24-hour round, and the service returns only the votes of
// an activity's last round (docs/local-service.md, "Approvals expire"),
// while get_policy_evaluations returns every round's evaluations.
var ErrEarlierRound = errors.New("the evaluation's vote is of an earlier 24-hour round, whose votes the service no longer returns")

// ErrOlderCopy is why a stored evaluation cannot be explained on the
// activity as read: its vote is not in that copy, yet nothing shows the
// vote to be of an earlier round (the copy may predate the vote). Read the
// activity again after its evaluations.
var ErrOlderCopy = errors.New("the evaluation's vote is not in the activity as read, which may be older than the evaluation; read the activity again")

// missingVote is why vote upTo, cast by an evaluation at at, is not in a's
// votes: ErrEarlierRound only when that is shown — the activity waits with
// no vote (its round ended), or the evaluation predates the first vote a
// shows (a later round's) — otherwise ErrOlderCopy: a copy read before the
// vote landed looks the same, and its vote is of the current round.
func missingVote(a api.Activity, upTo string, at time.Time) error {
	if upTo == "" {
		return ErrOlderCopy
	}
	if len(a.Votes) == 0 {
		if a.Status == api.StatusConsensusNeeded {
			return ErrEarlierRound
		}
		return ErrOlderCopy
	}
	first := a.Votes[0].CreatedAt.Time()
	if !at.IsZero() && !first.IsZero() && at.Before(first) {
		return ErrEarlierRound
	}
	return ErrOlderCopy
}

// Stored says what a stored evaluation of an activity can be explained as
// without deciding it again, when the record says more than the policies'
// outcomes: Decided is false when it must be re-decided (InputUpToVote)
// to be explained.
type Stored struct {
	Decided bool
	// Outcome is what the service did ("" when it cannot be told: an
	// evaluation of an earlier round) and Why says so in one line.
	Outcome, Why string
	// EarlierRound: its vote is not in the record (ErrEarlierRound); only
	// the outcomes the service stored can be shown, never re-decided ones.
	EarlierRound bool
	// OlderCopy: its vote is not in the record, which may predate it
	// (ErrOlderCopy): read the activity again to explain it.
	OlderCopy bool
}

// StoredOutcome explains what the record of a tells of its evaluation e
// beyond the policies: a rejection that ended the activity (OUTCOME_REJECTED,
// by its voter), a rejection that left it waiting (the service records what
// the policies gave for the approvals counted but decides nothing on a
// rejection: server/engine.go), or a vote the record no longer holds.
// Otherwise e is an approval's decision, to be re-decided.
func StoredOutcome(a api.Activity, e api.PolicyEvaluation) Stored {
	for _, o := range e.PolicyEvaluations {
		if o.Outcome == api.OutcomeRejected {
			return Stored{Decided: true, Outcome: api.OutcomeRejected, Why: RejectedWhy(a, e.VoteID)}
		}
	}
	v, ok := VoteOf(a, e.VoteID)
	if !ok {
		if err := missingVote(a, e.VoteID, e.CreatedAt.Time()); err == ErrOlderCopy {
			return Stored{Decided: true, OlderCopy: true, Why: err.Error()}
		}
		return Stored{Decided: true, EarlierRound: true, Why: ErrEarlierRound.Error()}
	}
	if v.Selection == api.VoteRejected {
		return Stored{Decided: true, Outcome: api.OutcomeRequiresConsensus,
			Why: "waiting: " + VoterName(a, e.VoteID) + "'s rejection left the activity pending (the members who may still vote can approve it); " +
				"a rejection's evaluation records what the policies gave but decides nothing"}
	}
	return Stored{}
}

// RejectedWhy is why a rejection ended an activity.
func RejectedWhy(a api.Activity, voteID string) string {
	return "rejected: " + VoterName(a, voteID) + "'s rejection left no way to reach consensus"
}

// VoteOf is the vote id of a's record.
func VoteOf(a api.Activity, id string) (api.Vote, bool) {
	for _, v := range a.Votes {
		if v.ID == id {
			return v, true
		}
	}
	return api.Vote{}, false
}

// VoterName names who cast vote id, quoted (a name never passes for the
// sentence's own words), or by id; "a member" when the record does not hold
// the vote.
func VoterName(a api.Activity, id string) string {
	v, ok := VoteOf(a, id)
	switch {
	case !ok:
		return "a member"
	case v.User.UserName != "":
		return api.Quote(v.User.UserName)
	}
	return api.SanitizeID(v.UserID)
}
