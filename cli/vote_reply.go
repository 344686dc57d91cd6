package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/vigil-console/vigil/api"
)

// voterOf is who votes with client: the user its key signs in as, read
// before the vote (after it the key may be gone: an approval that deletes
// it; "" when it cannot be read), and the key's public key and scheme, which
// tell the voter's own vote (api.Voter.VoteOn).
func voterOf(ctx context.Context, client *api.Client) api.Voter {
	w := api.Voter{PublicKey: stamperPublicKey(client.Stamper()), Scheme: stamperScheme(client.Stamper())}
	if me, err := client.Whoami(ctx); err == nil {
		w.UserID = me.UserID
	}
	return w
}

// checkVoteReply sorts after, the 2xx reply to a vote by voter on the
// activity id read as before (api.SortVoteReply), with the error that says why it is not
// the vote's outcome: for VoteReplyUnsure the cause to settle by reading
// (voteOutcome), for VoteReplyOtherActivity the loud exitOutcomeUnknown to
// end with.
func checkVoteReply(id string, voter api.Voter, approve bool, before *api.Activity, after shownActivity) (api.VoteReply, error) {
	verb := map[bool]string{true: "approve", false: "reject"}[approve]
	sorted := api.SortVoteReply(id, voter, approve, before, after.exact)
	switch sorted {
	case api.VoteReplyOtherActivity:
		return sorted, &exitStatus{exitOutcomeUnknown, fmt.Sprintf("%s %s: %s; see them with 'vigil activity get %s' and 'vigil activity get %s'",
			verb, api.SanitizeID(id), api.VoteOnOtherActivityText(id, after.exact), api.SanitizeID(id), api.SanitizeID(after.exact.ID))}
	case api.VoteReplyUnsure:
		return sorted, fmt.Errorf("submit/%s_activity: %s", verb, api.VoteReplyUnsureWhy(voter, before, after.exact))
	}
	return sorted, nil
}

// settleVote reads the activity again after a vote whose reply was lost or
// unclear (sendErr says how) and returns it when it shows the vote: the one
// api.VoteSince finds since before, the read voted from, by me, who the
// voter was read to be before the vote (read again here when that failed).
// Otherwise the error says why: the vote is not there yet
// (exitOutcomeUnknown: it may still arrive; voting again is safe, a second
// vote is refused), the activity or who you are cannot be read, or before
// already showed a vote by me (exitOutcomeUnknown too), or the activity
// shows the other vote, cast earlier (exit 1). The errors quote sendErr
// without wrapping it.
func settleVote(ctx context.Context, client *api.Client, before shownActivity, me api.Voter, approve bool, sendErr error) (shownActivity, error) {
	verb := map[bool]string{true: "approve", false: "reject"}[approve]
	id := before.ID
	a, err := getActivityShown(ctx, client, id)
	if err != nil {
		return a, &exitStatus{exitOutcomeUnknown, fmt.Sprintf("%s %s: %v; and reading the activity to see whether the vote counted failed too (%v): check with 'vigil activity get %s' (voting again is safe: a second vote is refused)", verb, id, sendErr, err, id)}
	}
	if me.UserID == "" {
		me = voterOf(ctx, client)
	}
	mine, doubt := api.VoteSince(me, before.exact, a.exact)
	if doubt != "" {
		// The reply's error (checkVoteReply) may already say this doubt: once is enough.
		said := fmt.Sprintf("%v; %s", sendErr, doubt)
		if sendErr != nil && strings.Contains(sendErr.Error(), doubt) {
			said = sendErr.Error()
		}
		return a, &exitStatus{exitOutcomeUnknown, fmt.Sprintf("%s %s: %s: check whether your vote is listed with 'vigil activity get %s' (voting again is safe: a second vote is refused)", verb, id, said, id)}
	}
	if mine == nil {
		// Not "nothing was recorded" (exit 1): the vote may still be on its
		// way, or being handled, and land after this read.
		return a, &exitStatus{exitOutcomeUnknown, fmt.Sprintf("%s %s: %v; %s (it is %s): check with 'vigil activity get %s'", verb, id, sendErr, api.VoteNotYetText, a.Status, id)}
	}
	if (mine.Selection == api.VoteApproved) != approve {
		return a, fmt.Errorf("%s %s: %v; the activity shows you had already %s it, and a vote cannot be changed (it is %s)", verb, id, sendErr, votedText(mine), a.Status)
	}
	return a, nil
}
