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
		if got := SortVoteReply("act-a", c.userID, c.approve, c.before, c.after); got != c.want {
			t.Errorf("%s: got %d, want %d", c.name, got, c.want)
		}
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
