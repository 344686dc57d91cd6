package server

import "github.com/vigil-console/vigil/api"

// A vote's message is the exact request body whose stamp cast it, so that
// anyone can check its signature (api.CheckVote). The submitter's own vote
// (and the approval of anyone who submits the same body again) was cast by
// the submission, whose body the activity row already holds: such a vote is
// stored with an empty message and shown with the activity's body, which
// every read of an activity loads anyway. A submission writes its body once.

// voteMessage is the message stored with a vote cast by body (fingerprint
// bodyFP) on a: empty when body is a's own submission (voteShown fills it).
func voteMessage(a *activity, body []byte, bodyFP string) string {
	if bodyFP == a.Fingerprint {
		return ""
	}
	return string(body)
}

// votesShown is a's votes as a reply shows them, each with its message.
// Stored rows (possibly shared with the votes cache) are not changed.
func (a *activity) votesShown() []api.Vote {
	out := make([]api.Vote, 0, len(a.Votes))
	body := ""
	for _, v := range a.Votes {
		vote := v.Vote
		if vote.Message == "" && vote.Signature != "" && v.BodyFingerprint == a.Fingerprint && len(a.Body) > 0 {
			if body == "" {
				body = string(a.Body) // once for every vote the submission cast
			}
			vote.Message = body
		}
		out = append(out, vote)
	}
	return out
}
