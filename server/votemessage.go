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
// body shown with each vote it cast): unbounded, an activity would pass the
// 4 MiB every delivery (webhook.MaxBodyBytes) and reply (api.MinReplyBytes)
// is promised to fit in. With the intent (at most 2 MiB encoded) and this,
// the votes' other fields, result, failure and proofs keep 1 MiB. A vote
// whose message would pass it is shown with an empty one: not checkable,
// rather than a delivery receivers refuse.
const maxVoteMessagesBytes = api.MaxRequestBodyBytes

// maxVoteBodyMessageBytes is the largest approve_activity or reject_activity
// body shown as a vote's message, encoded. Such a body has a fixed schema
// and an honest one is about 300 bytes; the service accepts one up to the
// 1 MiB request limit (whitespace between tokens is valid JSON), and
// refusing it would break a script that works against the real service. A
// larger one is shown with an empty message (its own vote not checkable),
// so one voter's padded body cannot take the room every later vote's
// message needs: filling maxVoteMessagesBytes takes 128 votes this large.
const maxVoteBodyMessageBytes = 8 << 10

// voteMessage is the message stored with a vote cast by body (fingerprint
// bodyFP) on a: empty when body is a's own submission (voteShown fills it).
func voteMessage(a *activity, body []byte, bodyFP string) string {
	if bodyFP == a.Fingerprint {
		return ""
	}
	return string(body)
}

// votesShown is a's votes as a reply shows them, each with its message while
// the messages, encoded, stay within maxVoteMessagesBytes. The room goes
// first to the requester's submission (the body that says what was asked),
// then to the approve and reject bodies no larger than
// maxVoteBodyMessageBytes, earlier votes first, then to other members'
// copies of the submission (a voter decides their size no more than a
// padded approval's). Stored rows (possibly shared with the votes cache) are
// not changed.
func (a *activity) votesShown() []api.Vote {
	const (
		requester = iota // the requester's submission
		small            // an approve or reject body within the cap
		copied           // another member's copy of the submission
		hidden           // no message, or one over the cap
	)
	out := make([]api.Vote, len(a.Votes))
	size := make([]int, len(a.Votes))  // each message, encoded
	order := make([]int, len(a.Votes)) // requester, small, copied or hidden
	body, bodyLen := "", 0
	seenRequester := false
	for i, v := range a.Votes {
		out[i], order[i] = v.Vote, hidden
		vote := &out[i]
		switch {
		case v.BodyFingerprint == a.Fingerprint:
			if vote.Message != "" { // a copy stored with the vote itself
				size[i] = encodedStringLen(vote.Message)
			} else if vote.Signature != "" && len(a.Body) > 0 {
				if body == "" {
					body = string(a.Body) // once for every vote the submission cast
					bodyLen = encodedStringLen(body)
				}
				vote.Message, size[i] = body, bodyLen
			} else {
				break
			}
			order[i] = copied
			if vote.UserID == a.RequesterID && !seenRequester {
				seenRequester, order[i] = true, requester
			}
		case vote.Message != "":
			if size[i] = encodedStringLen(vote.Message); size[i] <= maxVoteBodyMessageBytes {
				order[i] = small
			} else {
				vote.Message = ""
			}
		}
	}
	room := maxVoteMessagesBytes
	for _, pass := range []int{requester, small, copied} {
		for i := range out {
			if order[i] != pass {
				continue
			}
			if size[i] <= room {
				room -= size[i]
			} else {
				out[i].Message = ""
			}
		}
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
