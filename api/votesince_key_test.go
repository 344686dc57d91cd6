package api

import "testing"

// The key is known: whoami's user (a cache's answer: the requester's, whose
// request is her approval) must not hide the vote the key signed, new since
// before (docs/cli.md, docs/console.md: the key decides, whatever user
// whoami names).
func TestVoteSinceKeyKnownIgnoresWhoamiUser(t *testing.T) {
	w := Voter{UserID: "u-alice", PublicKey: "02b0b", Scheme: "SIGNATURE_SCHEME_TK_API_P256"}
	alice := Vote{ID: "v-a", UserID: "u-alice", Selection: VoteApproved, PublicKey: "02a11ce", Scheme: "SIGNATURE_SCHEME_TK_API_P256"}
	bob := Vote{ID: "v-b", UserID: "u-bob", Selection: VoteApproved, PublicKey: "02b0b", Scheme: "SIGNATURE_SCHEME_TK_API_P256"}
	before := &Activity{ID: "a1", Votes: []Vote{alice}}
	after := &Activity{ID: "a1", Votes: []Vote{alice, bob}}
	v, doubt := VoteSince(w, before, after)
	if v == nil || v.ID != bob.ID || doubt != "" {
		t.Errorf("the vote signed with the voter's key, new since before, is not found: %v, doubt %q", v, doubt)
	}
	if got := SortVoteReply("a1", w, true, before, after); got != VoteReplyCounted {
		t.Errorf("SortVoteReply = %d, want VoteReplyCounted", got)
	}
	// The key's own vote in the read before still tells that read is not
	// the service's (the service offers no vote to who has voted).
	if v, doubt := VoteSince(w, after, after); v != nil || doubt != VoterKeyDoubtText {
		t.Errorf("the key's vote already there before: vote %v, doubt %q, want %q", v, doubt, VoterKeyDoubtText)
	}
}
