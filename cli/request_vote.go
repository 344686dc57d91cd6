package cli

import (
	"context"
	"fmt"

	"github.com/vigil-console/vigil/api"
)

// A vote sent with 'vigil request' names only a fingerprint. Its reply is
// checked as 'vigil activity approve' checks one (checkVoteReply): against
// the activity the fingerprint names, found before sending, and the vote
// read since. A reply about another activity, or without the vote, is then
// not taken for the vote's outcome.

// requestVote is a vote body of 'vigil request', as read before it is sent.
type requestVote struct {
	approve bool
	fp      string        // the fingerprint voted on, as the body has it
	me      api.Voter     // who votes: the profile's key, and the user it signs in as
	before  shownActivity // the activity fp names, as read before; nil Activity when none
	why     string        // why before was not found, when it was not
}

// readRequestVote reads, before a vote body is sent, who votes and the
// activity whose fingerprint the body names (findVotedActivity; nil for any
// other body). Failing to look is an error: nothing is sent.
func readRequestVote(ctx context.Context, client *api.Client, body []byte) (*requestVote, error) {
	fp, org, approve, ok := api.VoteOfBody(body)
	if !ok {
		return nil, nil
	}
	if org != client.OrganizationID() {
		return nil, fmt.Errorf("request: the vote names organization %s, not the profile's, %s: its reply is checked against the activity voted on, which vigil looks for in the profile's organization; use a profile of that organization (nothing was sent)",
			api.SanitizeID(org), api.SanitizeID(client.OrganizationID()))
	}
	v := &requestVote{approve: approve, fp: fp, me: voterOf(ctx, client)}
	id, why, err := findVotedActivity(ctx, client, fp)
	if err != nil {
		return nil, fmt.Errorf("request: looking for the activity the vote names, to check the reply against it: %w (nothing was sent)", err)
	}
	if id == "" {
		v.why = why
		return v, nil
	}
	if v.before, err = getActivityShown(ctx, client, id); err != nil {
		return nil, fmt.Errorf("request: reading activity %s, which the vote names, to check the reply against it: %w (nothing was sent)", api.SanitizeID(id), err)
	}
	if err := v.otherVoteCast(); err != nil {
		return nil, err
	}
	return v, nil
}

// check is the outcome of a vote whose 2xx reply is body, as 'vigil
// activity approve' tells it: nil when the reply shows the vote on the
// activity voted on, or a read of it since does, or the voter's same vote
// was recorded before (alreadyVoted). The activity returned, when set,
// is that read: what to print instead of the reply, which did not show it.
func (v *requestVote) check(ctx context.Context, c proc, client *api.Client, status int, body []byte) (shownActivity, error) {
	verb := map[bool]string{true: "approve", false: "reject"}[v.approve]
	if v.before.Activity == nil {
		return shownActivity{}, &exitStatus{exitOutcomeUnknown, fmt.Sprintf("request: the service answered %d to a vote, but %s: the reply cannot be told as the vote's outcome; look with 'vigil activity list --limit 10' before voting again",
			status, v.why)}
	}
	after, err := decodeShownActivity("submit/"+verb+"_activity", body)
	if err != nil {
		return shownActivity{}, &exitStatus{exitOutcomeUnknown, fmt.Sprintf("request: %v: outcome unknown; check with 'vigil activity get %s'", err, api.SanitizeID(v.before.ID))}
	}
	if mine, unchecked := v.votedBefore(); mine != nil {
		return v.alreadyVoted(ctx, c, client, mine, unchecked, after)
	}
	sorted, err := checkVoteReply(v.before.exact.ID, v.me, v.approve, v.before.exact, after)
	if sorted != api.VoteReplyUnsure {
		return shownActivity{}, err
	}
	a, serr := settleVote(ctx, client, v.before, v.me, v.approve, err)
	if serr != nil {
		return shownActivity{}, serr
	}
	fmt.Fprintf(c.stderr, "vigil: %v\nvigil: the activity shows your vote, so it counted\n%s", err, rereadNote)
	return a, nil
}

// ranFailed is the end of a vote that is there (check, castAlready), as
// 'vigil activity approve' ends one (failedRun, votedOnEnded): exit 1 for an
// approval whose activity, as printed (the read since, when there is one,
// else the reply), ran and FAILED, so that a script gets the same answer
// from both, the first time or sent again. A rejection asked for no run:
// how others' approvals ran is not its failure.
func (v *requestVote) ranFailed(reread shownActivity, reply []byte) error {
	if !v.approve {
		return nil
	}
	a := reread
	if a.Activity == nil {
		var err error
		if a, err = decodeShownActivity("submit/approve_activity", reply); err != nil {
			return nil // check decoded it already: a reply it took for the outcome
		}
	}
	return failedRun(a.Activity)
}
