package api

import "testing"

// Once sent, only the key's vote carrying the signature just sent, on the
// activity voted on, is the vote: an earlier round's, or another activity's
// copied into the reply, is doubt, never the vote.
func TestVoteSinceSignatureJustSent(t *testing.T) {
	bob := Voter{UserID: "u-bob", PublicKey: "02bb", Scheme: "S"}
	vote := func(act, sig string) Vote {
		return Vote{ID: "v-" + act + sig, UserID: "u-bob", ActivityID: act, Selection: VoteApproved, PublicKey: "02bb", Scheme: "S", Signature: sig}
	}
	before := &Activity{ID: "act-a"}
	for _, c := range []struct {
		name    string
		sent    string
		vote    Vote
		counted bool
	}{
		{"the signature just sent (hex case aside)", "3045ab", vote("act-a", "3045AB"), true},
		{"an earlier round's signature", "3045ab", vote("act-a", "3045cd"), false},
		{"another activity's vote", "3045ab", vote("act-b", "3045ab"), false},
		{"another activity's vote, signature unknown", "", vote("act-b", ""), false},
		{"a service that returns no signature", "3045ab", vote("act-a", ""), true},
		{"signature not noted", "", vote("act-a", "3045cd"), true},
	} {
		after := &Activity{ID: "act-a", Votes: []Vote{c.vote}}
		v, doubt := VoteSince(bob.Sent(c.sent), before, after)
		if got := v != nil; got != c.counted {
			t.Errorf("%s: found %v (doubt %q), want found %v", c.name, v, doubt, c.counted)
		}
		if !c.counted && doubt != VoteNotJustSentText {
			t.Errorf("%s: doubt %q, want %q", c.name, doubt, VoteNotJustSentText)
		}
		want := VoteReplyUnsure
		if c.counted {
			want = VoteReplyCounted
		}
		if got := SortVoteReply("act-a", bob.Sent(c.sent), true, before, after); got != want {
			t.Errorf("%s: SortVoteReply = %d, want %d", c.name, got, want)
		}
	}
}
