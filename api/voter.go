package api

import "github.com/vigil-console/vigil/keys"

// A vote is the voter's own only when the key that stamps for the voter
// signed it: the service records the stamp's public key with each vote. A
// user id is what whoami says, and every member's whoami request is the same
// bytes, so a cache keyed on the body answers one member with another's
// (the requester's, whose submission is her approval on every activity).

// Voter is who casts a vote: the user whoami names ("" when it could not be
// read) and the public key (hex) and scheme of the key that stamps the vote
// ("" when the stamper does not say); once the vote is sent, the signature
// of its stamp (NoteSignature), which the service records with the vote.
type Voter struct {
	UserID    string
	PublicKey string
	Scheme    string
	Signature string
}

// Sent is w once its vote was sent with a stamp carrying signature sig.
func (w Voter) Sent(sig string) Voter {
	w.Signature = sig
	return w
}

// KeyKnown reports whether w's votes can be told by the key that signed them.
func (w Voter) KeyKnown() bool { return w.PublicKey != "" }

// Signed reports whether v was signed with w's key (and scheme, when both
// say one). False when w's key is not known.
func (w Voter) Signed(v *Vote) bool {
	if v == nil || !w.KeyKnown() {
		return false
	}
	if w.Scheme != "" && v.Scheme != "" && v.Scheme != w.Scheme {
		return false
	}
	scheme := w.Scheme
	if scheme == "" {
		scheme = v.Scheme
	}
	// A service may record the key uncompressed; the stamper's is compressed.
	return keys.SamePublicKey(keys.CredentialTypeOfScheme(scheme), v.PublicKey, w.PublicKey)
}

// VoteOn is w's vote on a: the one signed with w's key, whatever user it
// shows; when the key is not known, the one by the user whoami named (which
// cannot tell a cache's whoami from the service's). Nil when none.
func (w Voter) VoteOn(a *Activity) *Vote {
	if a == nil {
		return nil
	}
	if !w.KeyKnown() {
		return a.VoteOf(w.UserID)
	}
	for i := range a.Votes {
		if w.Signed(&a.Votes[i]) {
			return &a.Votes[i]
		}
	}
	return nil
}

// OtherKeyVote is the vote on a by the user whoami names that w's key did
// not sign (another key of theirs, or whoami's answer is not the service's):
// a vote that cannot be told as w's either way. Nil when there is none or
// w's key is not known.
func (w Voter) OtherKeyVote(a *Activity) *Vote {
	if a == nil || !w.KeyKnown() {
		return nil
	}
	if v := a.VoteOf(w.UserID); v != nil && !w.Signed(v) {
		return v
	}
	return nil
}

// VoterOtherKeyText says why a vote by the user whoami names is not told as
// the voter's: the profile's key did not sign it.
const VoterOtherKeyText = "the activity shows a vote by the user whoami names, but not signed with the key you vote with: " +
	"it may be yours, cast with another key, or that whoami reply or the read is not the service's (a cache or proxy may have answered for it)"

// VoterKeyUnknownText says why a vote already there cannot be told as the
// voter's: the stamper does not say its public key, so only whoami's user
// id names the voter.
const VoterKeyUnknownText = "the key you vote with does not say its public key, so a vote on the activity can be told as yours only by the user whoami names, " +
	"and that whoami reply may not be the service's (a cache or proxy may have answered for it)"

// OwnVoteCheck is what vigil can tell of the vote under a voter's key on
// an activity (Voter.OwnVote).
type OwnVoteCheck struct {
	// Shown is the vote under the voter's key, nil when there is none.
	Shown *Vote
	// Doubt, when not "", says why Shown is not told as the voter's (free
	// of text from the vote): whether they voted is then not known.
	Doubt string
	// Unchecked, when not "" (and Doubt is ""), says why Shown is told as
	// the voter's although vigil's vote check could not verify it.
	Unchecked string
}

// Mine is the vote told as the voter's: Shown unless there is a doubt.
func (c OwnVoteCheck) Mine() *Vote {
	if c.Doubt != "" {
		return nil
	}
	return c.Shown
}

// OwnVote is w's vote on a (VoteOn) told as the one w cast and the service
// recorded, for a voter about to cast a vote of selection casting ("" when
// none is being cast: asking whether w voted). A public key is public: a service or proxy can copy
// w's vote from another activity onto a, or show it with another
// selection, and "you already voted" on such a copy loses the vote. So a
// vote under w's key is w's when it passes vigil's vote check on a
// (VoteVerified) with a selection of APPROVED or REJECTED; one that FAILED
// (a copy) or has another selection is a Doubt. One vigil cannot check
// (VoteNotCheckable: most often shown without its signed message, which
// the service drops once a large request filled the room for them) is not
// a copy proven wrong: it is w's when its selection is casting (or casting
// is ""), noted as Unchecked, and a Doubt otherwise. It does no I/O.
func (w Voter) OwnVote(a *Activity, casting string) OwnVoteCheck {
	shown := w.VoteOn(a)
	if shown == nil {
		return OwnVoteCheck{}
	}
	if shown.Selection != VoteApproved && shown.Selection != VoteRejected {
		return OwnVoteCheck{Shown: shown, Doubt: OwnVoteUnknownSelectionText}
	}
	checks, _ := CheckActivityVotes(*a, nil)
	for i := range a.Votes {
		if &a.Votes[i] != shown {
			continue
		}
		switch checks[i].State {
		case VoteVerified:
			return OwnVoteCheck{Shown: shown}
		case VoteFailed:
			return OwnVoteCheck{Shown: shown, Doubt: "the activity shows a vote under your key that FAILED its check (" + checks[i].Reason + "): it was not signed as shown, so it may not be yours"}
		}
		if casting == "" || shown.Selection == casting {
			return OwnVoteCheck{Shown: shown, Unchecked: OwnVoteUncheckedText(checks[i].Reason)}
		}
		return OwnVoteCheck{Shown: shown, Doubt: "the activity shows a vote under your key that vigil cannot check (" + checks[i].Reason + "), so it cannot be told as yours"}
	}
	return OwnVoteCheck{Shown: shown, Doubt: "the activity shows a vote under your key that vigil cannot check, so it cannot be told as yours"}
}

// OwnVoteUncheckedText notes that a vote told as the voter's was not
// checked, and why (a VoteCheck's Reason, not text from the vote).
func OwnVoteUncheckedText(reason string) string {
	if reason == voteNoMessageReason {
		reason += "; a large request leaves later votes shown without one"
	}
	return "your vote was shown under your key without a signed message vigil can check (" + reason + "), so vigil could not check it"
}

// OwnVoteUnknownSelectionText says why a vote under the voter's key is not
// told as theirs: it is neither an approval nor a rejection.
const OwnVoteUnknownSelectionText = "the activity shows a vote under your key whose selection is neither " + VoteApproved + " nor " + VoteRejected + ", so it cannot be told as yours"
