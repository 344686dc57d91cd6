package api

import "time"

// castTimeDiff is signedTimeDiff of a vote's signed time ts and its
// createdAt shown, with one exception the service documents
// (docs/local-service.md): it dates a vote no earlier than the vote
// before it, so after its clock was set back an honest vote is dated
// later than it was signed, exactly with prev (the createdAt of the vote
// before it in the list). Such a vote is not failed: note says so, for a
// person to judge. Dated earlier than signed, or later without being
// dated with prev, it fails (why).
func castTimeDiff(ts string, shown, prev Time) (note, why string) {
	why = signedTimeDiff(ts, shown, "cast")
	if why == "" || prev.IsZero() || !shown.Time().Equal(prev.Time()) {
		return "", why
	}
	ms, err := ParseDecimal(ts)
	if err != nil || shown.Time().Sub(time.UnixMilli(ms)) <= SignedTimeTolerance {
		return "", why
	}
	return redatedNotePrefix + fmtSigned(ms) + " but dated " + shown.Time().UTC().Format(time.RFC3339) +
		" with the vote before it (the service dates votes in order, as after its clock was set back)", ""
}

// redatedNotePrefix begins castTimeDiff's note, by which redatedNote finds it.
const redatedNotePrefix = "; signed at "

// voteBefore is the createdAt of the vote before votes[i], zero if none.
func voteBefore(votes []Vote, i int) Time {
	if i <= 0 || i > len(votes) {
		return Time{}
	}
	return votes[i-1].CreatedAt
}

// sameVote reports whether w is v, as CheckVote finds v in its activity.
func sameVote(w, v *Vote) bool {
	return w.ID == v.ID && w.UserID == v.UserID && w.Signature == v.Signature && w.Message == v.Message && w.CreatedAt == v.CreatedAt
}
