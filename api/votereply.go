package api

import (
	"fmt"
	"slices"
	"strings"
)

// A vote is signed over the fingerprint a read of the activity gave, not
// over its id, and its reply is bound to that fingerprint only (bindingOf).
// A fingerprint is over the exact request body, which no reply carries, so
// a client cannot check it before voting: a read whose fingerprint was
// rewritten to another activity's gets the vote counted there. What the
// reply shows is therefore checked after the vote, the same way by the CLI
// and the console (SortVoteReply).

// VoteReply is what the activity of a 2xx reply to a vote says of that vote.
type VoteReply int

const (
	// VoteReplyCounted: the activity voted on, showing the voter's vote as cast.
	VoteReplyCounted VoteReply = iota
	// VoteReplyUnsure: the activity voted on without the voter's vote (or
	// with the other one), such as a cache's copy from before the vote: the
	// outcome is unknown until the activity is read again.
	VoteReplyUnsure
	// VoteReplyOtherActivity: another activity than the one voted on. The
	// vote, signed over the fingerprint sent, may have counted there.
	VoteReplyOtherActivity
)

// SortVoteReply sorts after, the activity of a 2xx reply to a vote (approve
// or reject) by voter on the activity id, whose read before the vote was
// before. The reply shows the vote only when VoteSince finds it, cast as
// asked: otherwise VoteReplyUnsure.
func SortVoteReply(id string, voter Voter, approve bool, before, after *Activity) VoteReply {
	if after == nil {
		return VoteReplyUnsure
	}
	if !sameID(after.ID, id) {
		return VoteReplyOtherActivity
	}
	v, doubt := VoteSince(voter, before, after)
	if doubt != "" || v == nil || (v.Selection == VoteApproved) != approve {
		return VoteReplyUnsure
	}
	return VoteReplyCounted
}

// VoteSince finds in after the vote voter cast since before, the read the
// service offered the vote on, was made (nil when after shows none): the
// vote signed with voter's key (Voter.VoteOn), or, when the key is not
// known, the vote by the user whoami named. The service offers no vote to a
// member who has voted, so the voter's vote in before (or one whose id
// before lists) means the read, or the whoami, is not the service's: a
// cache answering the requester's whoami would otherwise have the
// requester's own approval taken as the vote. Then, or when who votes or
// before is unknown, doubt says why no vote can be told as the voter's, and
// v is nil. When the key is known, only the key decides: whoami's user
// (possibly a cache's answer, another member's) neither casts doubt on the
// vote the key signed nor stands for it.
//
// A public key is public: a cache can copy the voter's vote from another
// activity's reply, or replay an earlier round's. So the vote must be on
// before's activity (its activityId, when it names one), and, once sent (voter.Signature), carry
// the signature of the stamp just sent, which the service records with it;
// a vote of the voter's with another signature is doubt (VoteNotJustSentText),
// never the vote. Only a vote without a signature (a service that does not
// return it) is taken on its key and activity alone.
func VoteSince(voter Voter, before, after *Activity) (v *Vote, doubt string) {
	switch {
	case voter.UserID == "" && !voter.KeyKnown():
		return nil, VoterUnknownText
	case before == nil:
		return nil, "the activity as read before the vote is not known"
	case voter.KeyKnown() && voter.VoteOn(before) != nil:
		return nil, VoterKeyDoubtText
	case voter.VoteOn(before) != nil:
		return nil, VoterDoubtText
	}
	if after == nil {
		return nil, ""
	}
	mine := func(v *Vote) bool {
		if voter.KeyKnown() {
			return voter.Signed(v)
		}
		return v.UserID == voter.UserID
	}
	if voter.Signature != "" {
		for i := range after.Votes {
			v := &after.Votes[i]
			if mine(v) && onActivity(v, before) && strings.EqualFold(v.Signature, voter.Signature) && !listed(before, v) {
				return v, ""
			}
		}
	}
	v = voter.VoteOn(after)
	switch {
	case v == nil:
		return nil, ""
	case listed(before, v):
		if voter.KeyKnown() {
			return nil, VoterKeyDoubtText
		}
		return nil, VoterDoubtText
	case !onActivity(v, before), voter.Signature != "" && v.Signature != "":
		// Another activity's vote, or one not signed by the stamp just sent.
		return nil, VoteNotJustSentText
	}
	return v, ""
}

// onActivity reports whether v says it is a vote on a (a vote that names
// no activity is taken to be).
func onActivity(v *Vote, a *Activity) bool {
	return v.ActivityID == "" || sameID(v.ActivityID, a.ID)
}

// listed reports whether before lists a vote with v's id.
func listed(before *Activity, v *Vote) bool {
	for _, old := range before.Votes {
		if old.ID != "" && old.ID == v.ID {
			return true
		}
	}
	return false
}

// VoteNotJustSentText says why a vote of the voter's in the activity read
// after the vote is not taken as its outcome: it is not the vote just sent.
const VoteNotJustSentText = "the service's copy shows an earlier vote of yours, not the one just sent " +
	"(it is another round's, or another activity's, or does not carry the signature just sent: a cache or proxy may have answered for the service)"

// VoterUnknownText says why a vote cannot be found when who the voter is
// could not be read.
const VoterUnknownText = "who you are could not be read (whoami failed), so no vote on the activity can be told as yours"

// VoterDoubtText says why a vote cannot be found when the key is not known
// and the read before the vote already showed one by the user whoami names.
const VoterDoubtText = "the activity as read before the vote already showed a vote by the user whoami names, though the service offered you a vote: " +
	"that whoami reply or that read is not the service's (a cache or proxy may have answered for it)"

// VoterKeyDoubtText says why a vote cannot be found when the read before the
// vote already showed one signed with the voter's key.
const VoterKeyDoubtText = "the activity as read before the vote already showed a vote signed with your key, though the service offered you a vote: " +
	"that read is not the service's (a cache or proxy may have answered for it)"

// VoteReplyUnsureText says why a 2xx reply to a vote is not its outcome.
const VoteReplyUnsureText = "the reply does not show your vote (a cache or proxy may have answered for the service)"

// VoteReplyUnsureWhy says why SortVoteReply found the reply after unsure:
// VoteSince's doubt when it has one (who votes could not be read, or the
// read before the vote already showed their vote), which the reply itself
// did not cause; VoteReplyUnsureText when the reply shows no vote as asked.
func VoteReplyUnsureWhy(voter Voter, before, after *Activity) string {
	if after != nil {
		if _, doubt := VoteSince(voter, before, after); doubt != "" {
			return doubt
		}
	}
	return VoteReplyUnsureText
}

// VoteNotYetText is what a read of the activity showing no vote says after
// a vote whose reply was unclear: the request may still be on its way, or
// being handled, so the vote may still arrive. Voting again cannot count
// twice: the service refuses a second vote.
const VoteNotYetText = "the activity does not show your vote yet: it may still arrive (the request may still be on its way or being handled); voting again is safe: a second vote is refused"

// VoteOnOtherActivityText is the warning for a vote on id whose reply is
// about other, another activity: it names other and its intent, as
// IntentLines shows it (other must hold exact strings: it is escaped here).
// Nothing of the activity voted on is shown as other's.
func VoteOnOtherActivityText(id string, other *Activity) string {
	seen := ShowIntent(other.Intent, nil)
	intent := strings.Join(seen.Lines, "; ")
	if intent == "" {
		intent = "(none)"
	}
	// Said as ShowIntent has it: lines that are not all of the intent must
	// not read as the whole of it.
	if len(seen.Doubts) > 0 {
		intent += " (not all of it: " + strings.Join(seen.Doubts, "; ") + ")"
	} else if slices.ContainsFunc(seen.Lines, IsShortened) {
		intent += " (long text shortened)"
	}
	return fmt.Sprintf("WARNING: the reply to your vote on %s is about ANOTHER activity, %s (%s, now %s), whose intent is: %s — "+
		"your vote may have been counted on it: a proxy or cache may have rewritten the fingerprint the vote was signed over; "+
		"do not trust this connection, and look at both activities",
		shown(id), shown(other.ID), shown(other.Type), shown(other.Status), intent)
}
