package screens

import "github.com/vigil-console/vigil/api"

// Every screen tells a vote as the console's the way the vote block does
// (c.voter()): by the console's key when it is known, whatever user whoami
// names (a cache may answer one member's whoami with another's); by the user
// whoami names only when the key is not known.

// isOwnVote reports whether v is the console's own vote.
func isOwnVote(c *Common, v *api.Vote) bool {
	w := c.voter()
	if w.KeyKnown() {
		return w.Signed(v)
	}
	return v != nil && v.UserID != "" && v.UserID == w.UserID
}

// notOwnKeyNote marks a vote by the user whoami names that the console's key
// did not sign: "" for any other vote.
func notOwnKeyNote(c *Common, v *api.Vote) string {
	if c.voter().KeyKnown() && v.UserID != "" && v.UserID == c.Org.UserID && !isOwnVote(c, v) {
		return " (not signed with this console's key)"
	}
	return ""
}

// otherKeyVoteText says why the service offers no vote on an activity that
// shows v, a vote by the user whoami names signed with another key than the
// console's: one of the user's other credentials (a passkey, a CI key, a key
// since rotated) cast it, or a request counted as its requester's approval.
// The local service refuses a second vote by the same user whatever key
// signs it (ALREADY_VOTED), so refreshing brings no vote back.
func otherKeyVoteText(v *api.Vote) string {
	what := "an approval"
	if v.Selection == api.VoteRejected {
		what = "a rejection"
	}
	return what + " by your user (the one whoami names) is already recorded, signed with another of your credentials (key " + shortKey(v.PublicKey) +
		"), not this console's key; the service takes one vote per user, whatever key signs it, and a vote cannot be changed" +
		" (unless that whoami answer came from a cache or proxy, and the vote is another member's)"
}
