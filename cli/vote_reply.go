package cli

import (
	"context"
	"fmt"

	"github.com/vigil-console/vigil/api"
)

// voterID is who the profile's key signs in as, read before the vote: after
// it the key may be gone (an approval that deletes it). "" when it cannot be
// read, which leaves a vote's reply unsure (checkVoteReply).
func voterID(ctx context.Context, client *api.Client) string {
	me, err := client.Whoami(ctx)
	if err != nil {
		return ""
	}
	return me.UserID
}

// checkVoteReply sorts after, the 2xx reply to a vote by userID on the
// activity id read as before (api.SortVoteReply), with the error that says why it is not
// the vote's outcome: for VoteReplyUnsure the cause to settle by reading
// (voteOutcome), for VoteReplyOtherActivity the loud exitOutcomeUnknown to
// end with.
func checkVoteReply(id, userID string, approve bool, before *api.Activity, after shownActivity) (api.VoteReply, error) {
	verb := map[bool]string{true: "approve", false: "reject"}[approve]
	sorted := api.SortVoteReply(id, userID, approve, before, after.exact)
	switch sorted {
	case api.VoteReplyOtherActivity:
		return sorted, &exitStatus{exitOutcomeUnknown, fmt.Sprintf("%s %s: %s; see them with 'vigil activity get %s' and 'vigil activity get %s'",
			verb, api.SanitizeID(id), api.VoteOnOtherActivityText(id, after.exact), api.SanitizeID(id), api.SanitizeID(after.exact.ID))}
	case api.VoteReplyUnsure:
		return sorted, fmt.Errorf("submit/%s_activity: %s", verb, api.VoteReplyUnsureWhy(userID, before, after.exact))
	}
	return sorted, nil
}
