package policy

import (
	"errors"

	"github.com/vigil-console/vigil/api"
)

// ErrVoteNotReturned is why a stored evaluation cannot be re-decided: its
// vote is not among the votes of the activity as read. Callers read the
// activity after the evaluations (read it again when a vote is missing), so
// the service no longer returns that vote: the service returns only the votes
// of an activity's last 24-hour round (docs/local-service.md, "Approvals
// expire"), while get_policy_evaluations returns every round's evaluations.
// Nothing is proven from times: a copy's age or a clock that stepped back
// would make any such proof wrong.
var ErrVoteNotReturned = errors.New("its vote is not among the votes the service returns now (an earlier 24-hour round's)")

// StillWaits is why a stored outcome of an evaluation whose vote is not
// returned decided nothing when the activity still waits: had it completed
// or failed the activity, the activity would not wait.
const StillWaits = "the activity still waits: this stored outcome did not complete it"

// Stored says what a stored evaluation of an activity can be explained as
// without deciding it again, when the record says more than the policies'
// outcomes: Decided is false when it must be re-decided (InputUpToVote)
// to be explained.
type Stored struct {
	Decided bool
	// Outcome is what the service did ("" when it cannot be told: an
	// evaluation whose vote is not returned) and Why says so in one line.
	Outcome, Why string
	// NotReturned: its vote is not in the record (ErrVoteNotReturned); only
	// the outcomes the service stored can be shown, never re-decided ones.
	NotReturned bool
	// Waiting: NotReturned on an activity that still waits, so its stored
	// outcomes decided nothing (StillWaits).
	Waiting bool
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
		s := Stored{Decided: true, NotReturned: true, Why: ErrVoteNotReturned.Error()}
		if a.Status == api.StatusConsensusNeeded {
			s.Waiting, s.Why = true, s.Why+"; "+StillWaits
		}
		return s
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
