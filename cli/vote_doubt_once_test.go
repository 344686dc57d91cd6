package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// A read before the vote that shows the voter's own key-signed vote while
// the service offered the vote is not the service's: the vote's outcome is
// unknown, and why is said once, not once for the reply and again for the
// read made to settle it.
func TestSettleVoteSaysDoubtOnce(t *testing.T) {
	e := newVerbEnv(t)
	id := openTag(t, e, "doubt-once")
	ctx := context.Background()
	bob := e.client("bob")
	me := voterOf(ctx, bob)
	if !me.KeyKnown() {
		t.Fatal("set-up: bob's profile key does not say its public key")
	}
	read, err := bob.GetActivity(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	read.Votes = append(read.Votes, api.Vote{ID: "v-cached", UserID: me.UserID, Selection: api.VoteApproved, PublicKey: me.PublicKey, Scheme: me.Scheme})
	before := shownActivity{Activity: read, exact: read}
	sorted, sendErr := checkVoteReply(id, me, true, read, before)
	if sorted != api.VoteReplyUnsure || sendErr == nil {
		t.Fatalf("set-up: a reply copying the read before is sorted %d (%v), want unsure", sorted, sendErr)
	}
	_, err = settleVote(ctx, bob, before, me, true, sendErr)
	if err == nil {
		t.Fatal("settleVote found a vote although the read before already showed the key's vote")
	}
	if n := strings.Count(err.Error(), api.VoterKeyDoubtText); n != 1 {
		t.Errorf("the doubt is said %d times, want once:\n%v", n, err)
	}
}
