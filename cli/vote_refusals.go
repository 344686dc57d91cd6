package cli

import (
	"context"
	"fmt"

	"github.com/vigil-console/vigil/api"
)

// ownVote finds the caller's vote on a: the one the profile's key signed
// and that passes vigil's vote check on a (api.Voter.OwnVote), nil when
// there is none. A vote that may be the caller's but cannot be told so is
// an exitOutcomeUnknown error saying why (unsure): one under the profile's
// key that does not verify as a vote on a or has an unknown selection (a
// copy from another activity would otherwise be "nothing to do" while the
// service holds no vote), one by the user whoami names signed with another
// key, or, when the key does not say its public key, any vote by that
// user, since a cache may answer every member's whoami with another's.
// A vote under the key of the selection about to be cast that vigil cannot
// check (shown without its signed message) is the caller's, and unchecked
// says so, for standard error. refused says what the service did not do
// ("the service says you cannot approve this activity").
func ownVote(ctx context.Context, client *api.Client, a shownActivity, approve bool, verb, refused string) (mine *api.Vote, unchecked string, err error) {
	me := voterOf(ctx, client)
	if me.UserID == "" && !me.KeyKnown() {
		return nil, "", fmt.Errorf("%s %s: %s, and who you are could not be checked (whoami failed, and the profile's key does not say its public key)", verb, a.ID, refused)
	}
	why := ""
	own := me.OwnVote(a.exact, api.VoteSelection(approve))
	switch {
	case me.OtherKeyVote(a.exact) != nil:
		why = api.VoterOtherKeyText
	case own.Shown != nil && !me.KeyKnown():
		why = api.VoterKeyUnknownText
	case own.Doubt != "":
		why = own.Doubt
	}
	if why != "" {
		return nil, "", &exitStatus{exitOutcomeUnknown, fmt.Sprintf("%s %s: %s; %s: whether your vote is recorded is not known (nothing was sent); see its votes with 'vigil activity get %s'",
			verb, a.ID, refused, why, a.ID)}
	}
	return own.Mine(), own.Unchecked, nil
}

// votedText is how a vote reads after "you already": "approved".
func votedText(v *api.Vote) string {
	if said := map[string]string{api.VoteApproved: "approved", api.VoteRejected: "rejected"}[v.Selection]; said != "" {
		return said
	}
	// Service-sent text: never raw to the terminal.
	return "voted " + api.Sanitize(api.ClipBytes(v.Selection, 64)) + " on"
}

// whyNoVote explains a vote the service would refuse. Voting again as before
// is no failure (a script retrying after a lost reply gets exit 0); a
// different vote, or none allowed, is.
func whyNoVote(ctx context.Context, c proc, client *api.Client, a shownActivity, approve, asJSON bool) error {
	verb := map[bool]string{true: "approve", false: "reject"}[approve]
	mine, unchecked, err := ownVote(ctx, client, a, approve, verb, "the service says you cannot "+verb+" this activity")
	if err != nil {
		return err
	}
	if mine == nil {
		if a.Status == api.StatusCreated || a.Status == api.StatusPending {
			// Before its policies have run nobody may vote: "not a voter"
			// would send the caller to ask someone else for nothing.
			return fmt.Errorf("%s %s: the activity is %s: it is not yet open for votes (its policies have not run); see when it is with 'vigil activity get %s', then vote again", verb, a.ID, a.Status, a.ID)
		}
		return fmt.Errorf("%s %s: you are not one of this activity's voters (the root quorum, or users its policies' consensus names); ask one of them", verb, a.ID)
	}
	if (mine.Selection == api.VoteApproved) != approve { // ownVote: APPROVED or REJECTED
		return fmt.Errorf("%s %s: you already %s this activity (%s); a vote cannot be changed", verb, a.ID, votedText(mine), timeText(mine.CreatedAt))
	}
	fmt.Fprintf(c.stderr, "vigil: you already %s this activity (%s); nothing to do\n", votedText(mine), timeText(mine.CreatedAt))
	noteUnchecked(c, unchecked)
	return showActivity(ctx, c, client, a, asJSON)
}

// votedOnEnded answers a vote on an activity that has ended. The caller's
// own vote, the same as this one, is no failure: it is most often the very
// vote that ended it, run again after a lost reply (exit 4) or a killed
// script. It exits as that vote did: 0, or 1 when an approval made it run
// and the run FAILED. Any other vote no longer changes anything: refused.
func votedOnEnded(ctx context.Context, c proc, client *api.Client, a shownActivity, approve, asJSON bool) error {
	return answerEnded(ctx, c, client, a, approve, asJSON, false)
}

// answerEnded is votedOnEnded; late says the vote was sent, after a read
// that still offered it, and refused: it arrived after the activity ended.
func answerEnded(ctx context.Context, c proc, client *api.Client, a shownActivity, approve, asJSON, late bool) error {
	verb := map[bool]string{true: "approve", false: "reject"}[approve]
	refused := fmt.Errorf("%s %s: the activity is already %s; votes no longer change it", verb, a.ID, a.Status)
	if late {
		vote := map[bool]string{true: "approval", false: "rejection"}[approve]
		refused = fmt.Errorf("%s %s: your %s was not counted: the activity was already %s by the time your vote arrived (it ended after vigil read it); votes no longer change it; see how it ended with 'vigil activity get %s'",
			verb, a.ID, vote, a.Status, a.ID)
	}
	mine, unchecked, err := ownVote(ctx, client, a, approve, verb, "the activity is already "+a.Status)
	if err != nil {
		return err
	}
	if mine == nil {
		return refused
	}
	if (mine.Selection == api.VoteApproved) != approve { // ownVote: APPROVED or REJECTED
		return fmt.Errorf("%s %s: you already %s this activity (%s), and it is now %s; a vote cannot be changed", verb, a.ID, votedText(mine), timeText(mine.CreatedAt), a.Status)
	}
	fmt.Fprintf(c.stderr, "vigil: you already %s this activity (%s), and it is now %s; nothing to do\n", votedText(mine), timeText(mine.CreatedAt), a.Status)
	noteUnchecked(c, unchecked)
	if err := showActivity(ctx, c, client, a, asJSON); err != nil {
		return err
	}
	if !approve {
		return nil // a rejection asked for no run: how others' approvals ran is not its failure
	}
	return failedRun(a.Activity)
}

// noteUnchecked notes on standard error that the vote told as the caller's
// was not checked (api.OwnVoteCheck.Unchecked), when it was not.
func noteUnchecked(c proc, unchecked string) {
	if unchecked != "" {
		fmt.Fprintf(c.stderr, "vigil: note: %s\n", unchecked)
	}
}

// votedAfterRead answers a vote the service refused, after a read that
// still offered it, as one on an activity no longer waiting for votes
// (NOT_VOTABLE) or as a second vote (ALREADY_VOTED): another member ended
// it, or the caller voted from elsewhere, in between (at the prompt, most
// often). The activity is read again and answered as that read would have
// been before sending (votedOnEnded, whyNoVote), never with the service's
// "correct the request". refused is the answer when the read fails or
// still offers the vote.
func votedAfterRead(ctx context.Context, c proc, client *api.Client, a shownActivity, approve, asJSON bool, refused error) error {
	now, err := getActivityShown(ctx, client, a.ID)
	if err != nil {
		return refused
	}
	if api.IsTerminal(now.Status) {
		return answerEnded(ctx, c, client, now, approve, asJSON, true)
	}
	if (approve && !now.CanApprove) || (!approve && !now.CanReject) {
		return whyNoVote(ctx, c, client, now, approve, asJSON)
	}
	return refused
}

// refusedAfterRead reports whether err is a refusal votedAfterRead answers.
func refusedAfterRead(err error) bool {
	return api.RefusedWith(err, api.ErrorCodeNotVotable) || api.RefusedWith(err, api.ErrorCodeAlreadyVoted)
}
