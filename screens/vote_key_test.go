package screens

import (
	"errors"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// A vote is the console's own only when the console's key signed it: the
// user whoami names may be another member's (a cache answers every member's
// whoami, the same bytes, with one member's), and a vote by that user is
// not the console's. Told as the console's, a refused vote would read
// "your vote was already counted", and the vote block "you already approved
// it", when the console's vote is nowhere.
func TestConsoleVoteIsToldByItsKey(t *testing.T) {
	const ownKey = "02c0ffee"
	h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 0)
	c := h.root.common
	c.OwnPublicKey = ownKey
	if c.Org.UserID == "" {
		t.Fatal("set-up: the organization did not load")
	}
	pending := sampleActivities()[0]
	with := func(v api.Vote) *api.Activity {
		act := pending
		act.Votes = append(append([]api.Vote(nil), act.Votes...), v)
		act.CanApprove, act.CanReject = false, false
		return &act
	}
	whoamis := api.Vote{ID: "v-x", UserID: c.Org.UserID, Selection: api.VoteApproved, PublicKey: "02other", CreatedAt: api.NewTime(testNow)}
	signed := api.Vote{ID: "v-y", UserID: "u-someone", Selection: api.VoteApproved, PublicKey: strings.ToUpper(ownKey), CreatedAt: api.NewTime(testNow)}
	refused := errors.New("you already approved this activity")

	notMine := activityVotedMsg{id: pending.ID, approve: true, voter: c.voter(), before: &pending, err: refused, current: with(whoamis)}
	if got := voteOutcomeOf(c, notMine); got == voteCountedAnyway {
		t.Errorf("a vote by whoami's user that the console's key did not sign is told as the console's, already counted")
	}
	mine := activityVotedMsg{id: pending.ID, approve: true, voter: c.voter(), before: &pending, err: refused, current: with(signed)}
	if got := voteOutcomeOf(c, mine); got != voteCountedAnyway {
		t.Errorf("the vote the console's key signed is not told as counted: outcome %d", got)
	}
	if text := cannotVoteText(c, with(whoamis), "approve"); strings.Contains(text, "you already approved") {
		t.Errorf("the vote block tells a vote the console's key did not sign as the console's: %q", text)
	}
	// signed carries no message, so vigil cannot check it: no copy proven
	// wrong, it is told as your vote, noting it was not checked.
	if text := cannotVoteText(c, with(signed), "approve"); !strings.Contains(text, "you already approved it") || !strings.Contains(text, "could not check it") {
		t.Errorf("the vote block does not tell the vote under the console's key, unchecked, as such: %q", text)
	}
}
