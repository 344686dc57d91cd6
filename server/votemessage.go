package server

import (
	"unicode/utf8"

	"github.com/vigil-console/vigil/api"
)

// A vote's message is the exact request body whose stamp cast it, so that
// anyone can check its signature (api.CheckVote). The submitter's own vote
// (and the approval of anyone who submits the same body again) was cast by
// the submission, whose body the activity row already holds: such a vote is
// stored with an empty message and shown with the activity's body, which
// every read of an activity loads anyway. A submission writes its body once.

// maxVoteMessagesBytes bounds what the votes' messages of one activity add
// to it, as JSON encodes them. A message is a body of up to 1 MiB, which
// escaping can double, and several votes may carry one (the submission's
// body shown with each vote it cast, padded approvals): unbounded, an
// activity would pass the 4 MiB every delivery (webhook.MaxBodyBytes) and
// reply (api.MinReplyBytes) is promised to fit in. With the intent (at most
// 2 MiB encoded) and this, the votes' other fields, result, failure and
// proofs keep 1 MiB. A vote whose message would pass it is shown with an
// empty one: not checkable, rather than a delivery receivers refuse.
const maxVoteMessagesBytes = api.MaxRequestBodyBytes

// voteMessage is the message stored with a vote cast by body (fingerprint
// bodyFP) on a: empty when body is a's own submission (voteShown fills it).
func voteMessage(a *activity, body []byte, bodyFP string) string {
	if bodyFP == a.Fingerprint {
		return ""
	}
	return string(body)
}

// votesShown is a's votes as a reply shows them, each with its message while
// the messages, encoded, stay within maxVoteMessagesBytes (earlier votes
// first). Stored rows (possibly shared with the votes cache) are not changed.
func (a *activity) votesShown() []api.Vote {
	out := make([]api.Vote, 0, len(a.Votes))
	body, bodyLen := "", 0
	room := maxVoteMessagesBytes
	for _, v := range a.Votes {
		vote := v.Vote
		n := 0
		if vote.Message == "" && vote.Signature != "" && v.BodyFingerprint == a.Fingerprint && len(a.Body) > 0 {
			if body == "" {
				body = string(a.Body) // once for every vote the submission cast
				bodyLen = encodedStringLen(body)
			}
			vote.Message, n = body, bodyLen
		} else if vote.Message != "" {
			n = encodedStringLen(vote.Message)
		}
		if n > room {
			vote.Message = ""
		} else {
			room -= n
		}
		out = append(out, vote)
	}
	return out
}

// encodedStringLen is the length of s as a JSON string the way the service
// encodes it (api.Marshal, HTML characters unescaped), quotes included: '"',
// '\\' and \n \r \t \b \f take 2 bytes, other control characters, U+2028,
// U+2029 and bytes that are not UTF-8 (written \ufffd) 6.
func encodedStringLen(s string) int {
	n := 2
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\' || c == '\n' || c == '\r' || c == '\t' || c == '\b' || c == '\f':
				n += 2
			case c < 0x20:
				n += 6
			default:
				n++
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1, r == '\u2028', r == '\u2029':
			n += 6
		default:
			n += size
		}
		i += size
	}
	return n
}
