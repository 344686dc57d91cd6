package api

import "time"

// Votes come in rounds (DESIGN.md §4): a round starts with a vote and lasts
// ApprovalLifetime; a vote cast after it ended starts the next round, and
// the earlier votes no longer count. An activity still waiting for
// consensus whose round has ended has no votes that count. The service
// applies the rule when it answers; the console applies the same rule to
// the copies it holds, so both count the same votes.

// ApprovalLifetime is how long a round of votes lasts.
const ApprovalLifetime = 24 * time.Hour

// LastRound is the index in votes, ordered by the time castAt gives, of the
// vote that starts the last round (0 for no votes).
func LastRound[V any](votes []V, castAt func(V) time.Time) int {
	start := 0
	for i := range votes {
		if !castAt(votes[i]).Before(castAt(votes[start]).Add(ApprovalLifetime)) {
			start = i
		}
	}
	return start
}

// RoundEnded reports whether the round that started at start has ended at
// now.
func RoundEnded(start, now time.Time) bool { return !now.Before(start.Add(ApprovalLifetime)) }
