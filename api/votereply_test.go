package api

import (
	"strings"
	"testing"
)

// A vote's reply counts only when it is about the activity voted on and
// shows the voter's vote as cast.
func TestSortVoteReply(t *testing.T) {
	with := func(id string, votes ...Vote) *Activity { return &Activity{ID: id, Votes: votes} }
	approved := Vote{ID: "v-bob", UserID: "u-bob", Selection: VoteApproved}
	requester := Vote{ID: "v-alice", UserID: "u-alice", Selection: VoteApproved}
	before := with("act-a", requester)
	for _, c := range []struct {
		name    string
		userID  string
		approve bool
		before  *Activity
		after   *Activity
		want    VoteReply
	}{
		{"shows the approval", "u-bob", true, before, with("act-a", requester, approved), VoteReplyCounted},
		{"another activity, with the vote", "u-bob", true, before, with("act-b", approved), VoteReplyOtherActivity},
		{"no vote of the voter's", "u-bob", true, before, with("act-a", requester), VoteReplyUnsure},
		{"the other vote", "u-bob", false, before, with("act-a", requester, approved), VoteReplyUnsure},
		{"voter unknown", "", true, before, with("act-a", requester, approved), VoteReplyUnsure},
		{"no activity", "u-bob", true, before, nil, VoteReplyUnsure},
		// A whoami naming the requester (a cache's answer): her approval
		// was there before the vote, so it is not the vote.
		{"a vote there before the vote", "u-alice", true, before, with("act-a", requester), VoteReplyUnsure},
		{"a vote id listed before, under another user", "u-bob", true, with("act-a", Vote{ID: "v-bob", UserID: "u-carol"}), with("act-a", approved), VoteReplyUnsure},
		{"pre-vote read unknown", "u-bob", true, nil, with("act-a", approved), VoteReplyUnsure},
	} {
		if got := SortVoteReply("act-a", Voter{UserID: c.userID}, c.approve, c.before, c.after); got != c.want {
			t.Errorf("%s: got %d, want %d", c.name, got, c.want)
		}
	}
}

// With the voter's key known, a vote is the voter's only when that key
// signed it: a whoami naming another member (a cache's answer to the same
// bytes) cannot make their vote the voter's, and whoami is not needed.
func TestSortVoteReplyByKey(t *testing.T) {
	with := func(id string, votes ...Vote) *Activity { return &Activity{ID: id, Votes: votes} }
	requester := Vote{ID: "v-alice", UserID: "u-alice", Selection: VoteApproved, PublicKey: "02aa", Scheme: "S"}
	bobs := Vote{ID: "v-bob", UserID: "u-bob", Selection: VoteApproved, PublicKey: "02BB", Scheme: "S"}
	bobsOtherKey := Vote{ID: "v-bob2", UserID: "u-bob", Selection: VoteApproved, PublicKey: "02cc", Scheme: "S"}
	bob := Voter{UserID: "u-bob", PublicKey: "02bb", Scheme: "S"}
	before := with("act-a", requester)
	for _, c := range []struct {
		name   string
		voter  Voter
		before *Activity
		after  *Activity
		want   VoteReply
	}{
		{"signed with the key (hex case aside)", bob, before, with("act-a", requester, bobs), VoteReplyCounted},
		{"whoami failed, key known", Voter{PublicKey: "02bb"}, before, with("act-a", requester, bobs), VoteReplyCounted},
		{"whoami names the requester", Voter{UserID: "u-alice", PublicKey: "02bb"}, before, with("act-a", requester), VoteReplyUnsure},
		{"the user's vote, another key", bob, before, with("act-a", requester, bobsOtherKey), VoteReplyUnsure},
		{"the key, another scheme", Voter{UserID: "u-bob", PublicKey: "02bb", Scheme: "T"}, before, with("act-a", requester, bobs), VoteReplyUnsure},
		{"the key's vote there before", bob, with("act-a", requester, bobs), with("act-a", requester, bobs), VoteReplyUnsure},
	} {
		if got := SortVoteReply("act-a", c.voter, true, c.before, c.after); got != c.want {
			t.Errorf("%s: got %d, want %d", c.name, got, c.want)
		}
	}
	// The key's vote is just not there (yet): whoami's user, whatever its
	// vote, casts no doubt when the key is known.
	if v, doubt := VoteSince(bob, before, with("act-a", requester, bobsOtherKey)); v != nil || doubt != "" {
		t.Errorf("a vote by whoami's user with another key: vote %v, doubt %q, want none and no doubt", v, doubt)
	}
}

// The warning names the other activity and its own intent, escaped: a
// hostile reply cannot act on the terminal through it.
func TestVoteOnOtherActivityTextIsEscaped(t *testing.T) {
	other := &Activity{ID: "act-b\x1b[2J", Type: TypeCreateUserTag, Status: StatusCompleted,
		Intent: Intent{CreateUserTagIntent: &CreateUserTagParams{UserTagName: "evil\x1b[31m\u202e"}}}
	got := VoteOnOtherActivityText("act-a", other)
	if strings.ContainsAny(got, "\x1b\u202e") {
		t.Errorf("the warning holds raw control characters: %q", got)
	}
	for _, want := range []string{"ANOTHER activity", "act-b", "evil", "act-a"} {
		if !strings.Contains(got, want) {
			t.Errorf("the warning lacks %q: %s", want, got)
		}
	}
}

// A warning whose other intent is shortened or cut says so: its lines must
// not read as all the other activity does.
func TestVoteOnOtherActivityTextSaysShortened(t *testing.T) {
	long := strings.Repeat("x", FreeTextShown*3)
	other := &Activity{ID: "act-b", Type: TypeCreateUserTag, Status: StatusPending,
		Intent: Intent{CreateUserTagIntent: &CreateUserTagParams{UserTagName: long}}}
	if got := VoteOnOtherActivityText("act-a", other); !strings.Contains(got, "shortened") {
		t.Errorf("the warning shows a shortened intent as whole: %s", got)
	}
}
