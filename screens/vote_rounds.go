package screens

import (
	"slices"
	"time"

	"github.com/vigil-console/vigil/api"
)

// Votes come in rounds (api.LastRound). The service sends only the votes
// that count when it answers; a copy the console holds keeps the votes of a
// round that has ended since, so what the console works out from a copy
// (what a vote would do, who voted, which copy is newer) counts only the
// votes that still count now, as the service would.

// countingVotes are the votes of act that count at now, in act's order: the
// service's rule (server: currentVotes). Rounds are counted in the order the
// votes were cast, which is the order the service lists them, not by sorting
// their times: after the service's clock stepped back the two differ, and
// only the service's order says which votes its next approval counts. A vote
// whose time is unknown makes the rounds unknown: every vote is kept, as the
// service sent them.
func countingVotes(act *api.Activity, now time.Time) []api.Vote {
	if len(act.Votes) == 0 {
		return act.Votes
	}
	for _, v := range act.Votes {
		if v.CreatedAt.IsZero() {
			return act.Votes
		}
	}
	start := api.LastRound(act.Votes, func(v api.Vote) time.Time { return v.CreatedAt.Time() })
	if act.Status == api.StatusConsensusNeeded && api.RoundEnded(act.Votes[start].CreatedAt.Time(), now) {
		return nil
	}
	return act.Votes[start:]
}

// withCountingVotes is act with only the votes that count at now.
func withCountingVotes(act *api.Activity, now time.Time) *api.Activity {
	counted := *act
	counted.Votes = countingVotes(act, now)
	return &counted
}

// roundEnds is when the round of act's votes ends, zero when no round runs
// (no votes, a vote of unknown time, a settled activity): the instant after
// which what the console works out from act changes with no new copy.
func roundEnds(act *api.Activity, now time.Time) time.Time {
	votes := countingVotes(act, now)
	if act.Status != api.StatusConsensusNeeded || len(votes) == 0 {
		return time.Time{}
	}
	for _, v := range votes {
		if v.CreatedAt.IsZero() {
			return time.Time{}
		}
	}
	// The round runs from its first vote cast (countingVotes).
	first := votes[0].CreatedAt.Time()
	return first.Add(api.ApprovalLifetime)
}

// voteKey tells one vote from another: its id, and who cast it when, for a
// service (or a fake) that sends no ids.
func voteKey(v api.Vote) string {
	return v.ID + "\x00" + v.UserID + "\x00" + v.CreatedAt.Seconds + "." + v.CreatedAt.Nanos
}

// sameVotes reports whether x and y hold the very same votes.
func sameVotes(x, y []api.Vote) bool {
	return slices.EqualFunc(x, y, func(a, b api.Vote) bool { return voteKey(a) == voteKey(b) })
}

// serviceSeen is the latest of the service's times act holds (its
// updatedAt, its votes'): the service sent act no earlier. Zero when act
// holds none.
func serviceSeen(act *api.Activity) time.Time {
	var seen time.Time
	later := func(t api.Time) {
		if !t.IsZero() && t.Time().After(seen) {
			seen = t.Time()
		}
	}
	later(act.UpdatedAt)
	for _, v := range act.Votes {
		later(v.CreatedAt)
	}
	return seen
}

// olderVotes reports whether x's votes are older than than's, for two copies
// whose status and updatedAt do not tell them apart. Never true both ways.
// Whether a round has ended is judged by the service's time as far as the
// copies show it, not by the console's clock alone, which may be behind the
// service's: a vote that ended on the service but not yet on the console
// must not make the service's copy without it look older.
func olderVotes(x, than *api.Activity, now time.Time) bool {
	svc := now
	for _, t := range []time.Time{serviceSeen(x), serviceSeen(than)} {
		if t.After(svc) {
			svc = t
		}
	}
	xMisses, thanMisses := missesVote(x, than, svc), missesVote(than, x, svc)
	if xMisses || thanMisses {
		return xMisses && !thanMisses
	}
	// Neither lacks a vote that counts in the other: the one holding votes
	// the other does not holds votes of an ended round the service dropped.
	return holdsVoteNotIn(x, than) && !holdsVoteNotIn(than, x)
}

// missesVote reports whether x lacks a vote that counts in than at the
// service's time svc and may have been read before that vote was cast. A
// copy that shows a service time at or after the vote and lacks it was sent
// after the service had dropped it: its round had ended.
func missesVote(x, than *api.Activity, svc time.Time) bool {
	have := map[string]bool{}
	for _, v := range x.Votes {
		have[voteKey(v)] = true
	}
	seen := serviceSeen(x)
	for _, v := range countingVotes(than, svc) {
		if !have[voteKey(v)] && (v.CreatedAt.IsZero() || seen.Before(v.CreatedAt.Time())) {
			return true
		}
	}
	return false
}

// holdsVoteNotIn reports whether x holds a vote than does not.
func holdsVoteNotIn(x, than *api.Activity) bool {
	held := map[string]bool{}
	for _, v := range than.Votes {
		held[voteKey(v)] = true
	}
	for _, v := range x.Votes {
		if !held[voteKey(v)] {
			return true
		}
	}
	return false
}
