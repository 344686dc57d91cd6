package api

import (
	"strings"
	"testing"
)

// A vote's reply counts only when it is about the activity voted on and
// shows the voter's vote as cast.
func TestSortVoteReply(t *testing.T) {
	with := func(id string, votes ...Vote) *Activity { return &Activity{ID: id, Votes: votes} }
	approved := Vote{UserID: "u-bob", Selection: VoteApproved}
	for _, c := range []struct {
		name    string
		userID  string
		approve bool
		after   *Activity
		want    VoteReply
	}{
		{"shows the approval", "u-bob", true, with("act-a", approved), VoteReplyCounted},
		{"another activity, with the vote", "u-bob", true, with("act-b", approved), VoteReplyOtherActivity},
		{"no vote of the voter's", "u-bob", true, with("act-a", Vote{UserID: "u-alice", Selection: VoteApproved}), VoteReplyUnsure},
		{"the other vote", "u-bob", false, with("act-a", approved), VoteReplyUnsure},
		{"voter unknown", "", true, with("act-a", approved), VoteReplyUnsure},
		{"no activity", "u-bob", true, nil, VoteReplyUnsure},
	} {
		if got := SortVoteReply("act-a", c.userID, c.approve, c.after); got != c.want {
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
