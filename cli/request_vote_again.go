package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/vigil-console/vigil/api"
)

// A vote body sent again after a lost reply ("voting again is safe") is
// answered by the service with the activity showing the vote those very
// bytes cast. The activity may have ended by that vote, so it is looked up
// among recent activities too, and a read before sending that already shows
// the voter's vote is no doubt then but the vote already recorded, as
// 'vigil activity approve' tells it (whyNoVote, votedOnEnded).

// findVotedActivity is the id of the activity whose fingerprint is fp:
// first among those waiting for votes, then among the newest of any status
// (a vote that ended the activity, sent again). Both reads are bounded; why
// says why none was found when id is "". A read that fails is an error.
func findVotedActivity(ctx context.Context, client *api.Client, fp string) (id, why string, err error) {
	if fp == "" {
		return "", "the vote names no fingerprint", nil
	}
	match := func(a api.Activity) {
		if id == "" && (a.Fingerprint == fp || a.Fingerprint == api.SanitizeID(fp)) {
			id = a.ID
		}
	}
	waiting := api.ListActivitiesOptions{Statuses: []string{api.StatusConsensusNeeded}}
	errWaiting := api.WalkActivities(ctx, client, waiting, api.MaxPendingDeletionPages, match)
	if id != "" {
		return id, "", nil
	}
	errRecent := api.WalkActivities(ctx, client, api.ListActivitiesOptions{}, api.MaxPendingDeletionPages, match)
	switch {
	case id != "":
		return id, "", nil
	case errWaiting != nil:
		return "", "", errWaiting
	case errors.Is(errRecent, api.ErrWalkCutShort):
		return "", fmt.Sprintf("no activity waiting for votes, nor any of the newest %d, had fingerprint %s before the vote was sent",
			api.MaxPendingDeletionPages*100, api.SanitizeID(fp)), nil
	case errRecent != nil:
		return "", "", errRecent
	}
	return "", fmt.Sprintf("no activity had fingerprint %s before the vote was sent", api.SanitizeID(fp)), nil
}

// votedBefore is the voter's vote on the activity as read before sending,
// when that read is consistent with it: the service no longer offered this
// vote (or the activity had ended), and the profile's key signed it, a
// vote that verifies as one on this activity (recordedVote). A vote
// shown while the vote was still offered is a doubt about that read or
// whoami (api.VoterDoubtText), and so is a vote by whoami's user that the key
// did not sign, or any when the key does not say its public key (a cache
// may answer one member's whoami and read with another's, the requester's,
// whose submission is her approval), or one under the key that does not
// verify (a copy): those are left to checkVoteReply,
// which never tells them as the voter's.
func (v *requestVote) votedBefore() (mine *api.Vote, unchecked string) {
	b := v.before
	if b.Activity == nil || !v.me.KeyKnown() {
		return nil, ""
	}
	offered := (v.approve && b.exact.CanApprove) || (!v.approve && b.exact.CanReject)
	if offered && !api.IsTerminal(b.exact.Status) {
		return nil, ""
	}
	return v.recordedVote(b.exact)
}

// recordedVote is the voter's vote on a when it can be told as theirs
// (api.Voter.OwnVote: signed with their key, verified as a vote on a, of a
// known selection, or of the selection sent when vigil cannot check it:
// unchecked then says why), nil otherwise: a vote under their key copied
// from another activity, or shown with another selection, is not their vote.
func (v *requestVote) recordedVote(a *api.Activity) (mine *api.Vote, unchecked string) {
	own := v.me.OwnVote(a, api.VoteSelection(v.approve))
	return own.Mine(), own.Unchecked
}

// otherVoteCast refuses, before anything is sent, a vote of the other kind
// than the one the profile's key already cast (votedBefore): a vote cannot
// be changed. Sent, it could still count (a round that ends between the
// read and the send starts afresh), and the refusal would then be false.
func (v *requestVote) otherVoteCast() error {
	mine, _ := v.votedBefore()
	if mine == nil || (mine.Selection == api.VoteApproved) == v.approve {
		return nil
	}
	verb := map[bool]string{true: "approve", false: "reject"}[v.approve]
	id := api.SanitizeID(v.before.exact.ID)
	return fmt.Errorf("request: %s %s: you already %s this activity (%s, signed with this profile's key), and it is %s; a vote cannot be changed: nothing was sent (see it with 'vigil activity get %s')",
		verb, id, api.Sanitize(votedText(mine)), timeText(mine.CreatedAt), api.Sanitize(v.before.exact.Status), id)
}

// alreadyVoted is the outcome of a vote whose voter had cast the same vote,
// mine (unchecked: why vigil could not check it, as votedBefore says),
// before it was sent (the other is refused before sending:
// otherVoteCast): what the reply after (or a read since) still shows is no
// failure (a resend after a lost reply), and the activity to print instead
// of the reply when it was read again.
func (v *requestVote) alreadyVoted(ctx context.Context, c proc, client *api.Client, mine *api.Vote, unchecked string, after shownActivity) (shownActivity, error) {
	verb := map[bool]string{true: "approve", false: "reject"}[v.approve]
	id := api.SanitizeID(v.before.exact.ID)
	was := fmt.Sprintf("you already %s this activity (%s)", api.Sanitize(votedText(mine)), timeText(mine.CreatedAt))
	if sorted, err := checkVoteReply(v.before.exact.ID, v.me, v.approve, v.before.exact, after); sorted == api.VoteReplyOtherActivity {
		return shownActivity{}, err
	}
	if shown, _ := v.recordedVote(after.exact); sameVote(shown, mine) {
		fmt.Fprintf(c.stderr, "vigil: %s, and it is %s; the reply shows that vote: nothing more to do\n", was, api.Sanitize(after.exact.Status))
		noteUnchecked(c, unchecked)
		return shownActivity{}, nil
	}
	// The reply does not show the vote the read before it did (a cache's
	// copy): the activity as it is now says.
	a, err := getActivityShown(ctx, client, v.before.exact.ID)
	if err != nil {
		return shownActivity{}, &exitStatus{exitOutcomeUnknown, fmt.Sprintf("%s %s: %s, but the reply does not show that vote, and reading the activity again failed (%v): check with 'vigil activity get %s'", verb, id, was, err, id)}
	}
	if shown, _ := v.recordedVote(a.exact); !sameVote(shown, mine) {
		return shownActivity{}, &exitStatus{exitOutcomeUnknown, fmt.Sprintf("%s %s: %s, but neither the reply nor a read since shows that vote: check with 'vigil activity get %s'", verb, id, was, id)}
	}
	fmt.Fprintf(c.stderr, "vigil: %s, and it is %s: nothing more to do\n%s", was, a.Status, rereadNote)
	noteUnchecked(c, unchecked)
	return a, nil
}

// rereadNote says on standard error that standard output is not the
// service's reply to the vote but to the read since.
const rereadNote = "vigil: printed is the activity as read after the vote (the service's reply to get_activity, as sent), not its reply to the vote (which did not show the vote)\n"

// sameVote reports whether got is the vote want: the same selection, and
// the same vote id when both have one.
func sameVote(got, want *api.Vote) bool {
	if got == nil || want == nil || got.Selection != want.Selection {
		return false
	}
	return got.ID == "" || want.ID == "" || got.ID == want.ID
}

// castAlready is the outcome of a vote the service refused with 409 (a
// second vote: ALREADY_VOTED), read again: when the activity shows the same
// vote signed with the profile's key (a resend whose body is new: a fresh
// timestampMs), it is no failure, as 'vigil activity approve' says of it,
// and the activity read is what to print. Otherwise refused stands: the
// service recorded nothing of this request. A read that fails leaves it.
func (v *requestVote) castAlready(ctx context.Context, c proc, client *api.Client, refused error) (shownActivity, error) {
	if v.before.Activity == nil || !v.me.KeyKnown() {
		return shownActivity{}, refused
	}
	a, err := getActivityShown(ctx, client, v.before.exact.ID)
	if err != nil {
		return shownActivity{}, refused
	}
	mine, unchecked := v.recordedVote(a.exact)
	if mine == nil || (mine.Selection == api.VoteApproved) != v.approve {
		return shownActivity{}, refused
	}
	fmt.Fprintf(c.stderr, "vigil: the service refused the vote as a second one, and the activity shows you already %s it (%s, signed with this profile's key), and it is %s: nothing more to do\n%s",
		api.Sanitize(votedText(mine)), timeText(mine.CreatedAt), api.Sanitize(a.Status), castAlreadyNote)
	noteUnchecked(c, unchecked)
	return a, nil
}

// castAlreadyNote says on standard error that standard output is not the
// service's refusal.
const castAlreadyNote = "vigil: printed is the activity as read after the refusal (the service's reply to get_activity, as sent), not its reply to the vote\n"

// endedFirst answers a vote the service refused as one on an activity no
// longer waiting for votes (NOT_VOTABLE), as 'vigil activity approve' does
// (votedAfterRead): the same vote already there is no failure
// (castAlready); otherwise, when the activity as read again has ended, the
// refusal says the vote came too late (exit 1) rather than leave the
// service's status for the user to decode. refused is the answer when the
// read fails or shows the activity still waiting.
func (v *requestVote) endedFirst(ctx context.Context, c proc, client *api.Client, refused error) (shownActivity, error) {
	if a, err := v.castAlready(ctx, c, client, refused); err == nil {
		return a, nil
	}
	if v.before.Activity == nil {
		return shownActivity{}, refused
	}
	a, err := getActivityShown(ctx, client, v.before.exact.ID)
	if err != nil || !api.IsTerminal(a.Status) {
		return shownActivity{}, refused
	}
	vote := map[bool]string{true: "approval", false: "rejection"}[v.approve]
	id := api.SanitizeID(a.ID)
	return shownActivity{}, &exitStatus{exitFailure, fmt.Sprintf("%v: your %s was not counted: activity %s was already %s by the time your vote arrived; votes no longer change it; see how it ended with 'vigil activity get %s'",
		refused, vote, id, api.Sanitize(a.Status), id)}
}
