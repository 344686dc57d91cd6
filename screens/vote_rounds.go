package screens

import (
	"slices"
	"time"

	"github.com/vigil-console/vigil/api"
)

// Votes come in rounds (DESIGN.md §4, docs/local-service.md): a round starts
// with a vote and lasts approvalLifetime; a vote cast after it ended starts
// the next one, and an activity still waiting for consensus whose round has
// ended has no votes that count. The service sends only the votes that count
// when it answers; a copy the console holds keeps the votes of a round that
// has ended since, so what the console works out from a copy (what a vote
// would do, who voted, which copy is newer) counts only the votes that
// still count now, as the service would.

// approvalLifetime is how long a round of votes lasts (the service's rule).
const approvalLifetime = 24 * time.Hour

// countingVotes are the votes of act that count at now, in act's order: the
// service's rule (server: currentVotes). A vote whose time is unknown makes
// the rounds unknown: every vote is kept, as the service sent them.
func countingVotes(act *api.Activity, now time.Time) []api.Vote {
	if len(act.Votes) == 0 {
		return act.Votes
	}
	times := make([]time.Time, len(act.Votes))
	for i, v := range act.Votes {
		if v.CreatedAt.IsZero() {
			return act.Votes
		}
		times[i] = v.CreatedAt.Time()
	}
	sorted := slices.Clone(times)
	slices.SortFunc(sorted, time.Time.Compare)
	start := sorted[0]
	for _, t := range sorted {
		if !t.Before(start.Add(approvalLifetime)) {
			start = t
		}
	}
	if act.Status == api.StatusConsensusNeeded && !now.Before(start.Add(approvalLifetime)) {
		return nil
	}
	var out []api.Vote
	for i, v := range act.Votes {
		if !times[i].Before(start) {
			out = append(out, v)
		}
	}
	return out
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
	first := votes[0].CreatedAt.Time()
	for _, v := range votes {
		if v.CreatedAt.IsZero() {
			return time.Time{}
		}
		if t := v.CreatedAt.Time(); t.Before(first) {
			first = t
		}
	}
	return first.Add(approvalLifetime)
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

// lacksVoteOf reports whether x lacks a vote that counts in than at now: a
// copy read before that vote was cast.
func lacksVoteOf(x, than *api.Activity, now time.Time) bool {
	have := map[string]bool{}
	for _, v := range x.Votes {
		have[voteKey(v)] = true
	}
	for _, v := range countingVotes(than, now) {
		if !have[voteKey(v)] {
			return true
		}
	}
	return false
}

// staleVotesOf reports whether x holds votes that no longer count at now and
// than does not, while than holds every vote that counts in x: a copy from
// before the round ended, than one from after.
func staleVotesOf(x, than *api.Activity, now time.Time) bool {
	if lacksVoteOf(than, x, now) {
		return false
	}
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
