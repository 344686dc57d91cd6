package policy

import (
	"time"

	"github.com/vigil-console/vigil/api"
)

// Fails reports whether the service fails an activity when a decision at its
// submission or at an approval comes out this way: anything but ALLOW (it
// completes) and REQUIRES_CONSENSUS (it waits). The local service
// (server/engine.go, castVote) applies this rule, and the simulation too.
func Fails(outcome string) bool {
	return outcome != api.OutcomeAllow && outcome != api.OutcomeRequiresConsensus
}

// A Step is where in an activity's record a simulated decision was made: the
// service decides at the submission and again at every approval, and the
// first decision that completes or fails the activity is the last one.
type Step struct {
	Vote       api.Vote // the approval decided at; zero when the record shows none
	Submission bool     // that approval is the submission
	Voter      string   // the voter, as a sentence names them (quoted)
	// Next is set for an activity still waiting (DecideNext): decided at its
	// next approval, with the votes that still count, at the time of the
	// simulation.
	Next bool
	In   Input // what the decision was made on
}

// Where says in words where the decision was made: "at submission", "at the
// approval by 'bob'", "at its next approval" for a waiting activity
// (decided now, on the votes recorded), or
// "as the record stands" when it shows no approval.
func (s Step) Where() string {
	switch {
	case s.Next:
		return "at its next approval"
	case s.Submission:
		return "at submission"
	case s.Voter == "":
		return "as the record stands"
	}
	return "at the approval by " + s.Voter
}

// FailsAt is how a simulation says that a decision fails the activity, and
// where: "FAILS at submission: " then why; why alone when it does not fail it.
func FailsAt(d Decision, at Step, why string) string {
	if !Fails(d.Outcome) {
		return why
	}
	return "FAILS " + at.Where() + ": " + why
}

// DecideVotes decides a recorded activity with these policies as the service
// does: at its submission, then at each later approval in the order cast,
// each at its own time. The first decision that completes or fails the
// activity is its outcome, with the approval it was made at; when every one
// waits, the last. A rejection is not a decision point: the service never
// completes or fails an activity on it. A record with no approval (its
// round ended) is decided once, as InputOfActivity makes it.
func DecideVotes(policies []Policy, act api.Activity, members map[string]Approver, quorum Quorum) (Decision, Step) {
	rootOnly := RootOnly(act.Type)
	submitted := SubmitterOf(act) != ""
	var d Decision
	var at Step
	decided := false
	for i, v := range act.Votes {
		if v.Selection != api.VoteApproved {
			continue
		}
		upTo := act
		upTo.Votes = act.Votes[:i+1]
		in := InputOfActivity(upTo, members, v.CreatedAt.Time())
		d, decided = Decide(policies, in, quorum, rootOnly), true
		at = Step{Vote: v, Submission: i == 0 && submitted, Voter: voterName(v, members), In: in}
		if d.Outcome != api.OutcomeRequiresConsensus {
			return d, at
		}
	}
	if decided {
		return d, at
	}
	in := InputOfActivity(act, members, time.Time{})
	return Decide(policies, in, quorum, rootOnly), Step{In: in}
}

// voterName names a vote's voter in a sentence: the member's name quoted, or
// the record's, or the sanitized id.
func voterName(v api.Vote, members map[string]Approver) string {
	name := members[v.UserID].Name
	if name == "" {
		name = v.User.UserName
	}
	switch {
	case name != "":
		return api.Quote(name)
	case api.SanitizeID(v.UserID) != "":
		return api.SanitizeID(v.UserID)
	}
	return "a voter the record does not name"
}

// DecideNext decides an activity still waiting as the service will at its
// next approval: with every vote of its round that still counts at now (none
// once that 24-hour round has ended, as the service then starts a new one),
// at now. Its submission and past approvals were decided already and left it
// waiting; a draft created now is evaluated only from then on. The
// submitter is read from the whole record, as the service keeps it (its
// first vote), not from the round that still counts, whose first vote may be
// anyone's.
func DecideNext(policies []Policy, act api.Activity, members map[string]Approver, quorum Quorum, now time.Time) (Decision, Step) {
	requester := SubmitterOf(act)
	act.Votes = countingAt(act.Votes, now)
	in := InputOfActivity(act, members, now)
	in.Requester, in.RequesterUnknown = requester, requester == ""
	return Decide(policies, in, quorum, RootOnly(act.Type)), Step{Next: true, In: in}
}

// countingAt is the votes of the last round, or none when that round has
// ended at now: the votes a vote cast at now would join (server
// currentVotes).
func countingAt(votes []api.Vote, now time.Time) []api.Vote {
	if len(votes) == 0 {
		return votes
	}
	start := api.LastRound(votes, func(v api.Vote) time.Time { return v.CreatedAt.Time() })
	if api.RoundEnded(votes[start].CreatedAt.Time(), now) {
		return nil
	}
	return votes[start:]
}
