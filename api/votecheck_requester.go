package api

import "strconv"

// SubmitterOf is the id of the user who submitted a, from its record: the
// first vote, when that vote is an approval cast before the activity's
// first round ended. The service returns only the votes of the last round,
// so the first vote of a later round is not the submitter's; "" when the
// record cannot tell (no creation time, no vote, or only a later round
// shown). The console and the CLI name the requester by it, and the intent
// check holds a verified submission to it.
func SubmitterOf(a Activity) string {
	created := a.CreatedAt.Time()
	if len(a.Votes) == 0 || created.IsZero() {
		return ""
	}
	first := a.Votes[0]
	cast := first.CreatedAt.Time()
	if first.Selection != VoteApproved || cast.IsZero() || RoundEnded(created, cast) {
		return ""
	}
	return first.UserID
}

// requesterSubmission says how far the verified submission, vote i of a,
// vouches for the requester shown (SubmitterOf). notMine says why it does
// not ("" when it may): it must be the requester's vote, their only one,
// and, when users (the organization's user list; nil: not read) were
// read, a listed member's, signed by none but one of their keys.
// Otherwise "checked" would tell the voter that the member named as
// requester asked for this, while another signed it. unproven says why,
// though nothing says it is not theirs, the key is not positively the
// requester's ("" when the list holds it as theirs): the list was not
// read, or holds keys of theirs vigil cannot read. A proxy that breaks the
// list must not get "checked" for a vote it moved to another member. Its
// reasons hold no text from the service.
func requesterSubmission(a Activity, i int, users []User) (notMine, unproven string) {
	who := SubmitterOf(a)
	if i != 0 || who == "" {
		return "the signed submission is shown as vote " + strconv.Itoa(i+1) + " of " + strconv.Itoa(len(a.Votes)) +
			", not as the requester's (the first vote, an approval of the first voting round): the requester named is not the member who signed it", ""
	}
	n := 0
	for _, v := range a.Votes {
		if v.UserID == who {
			n++
		}
	}
	if n > 1 {
		return "the requester shown has " + strconv.Itoa(n) + " votes on it, where a member casts one: the votes are not as the service recorded them", ""
	}
	const signedByKey = "the type, organization and intent shown are the ones signed by the key on the requester's vote, but "
	const notSigner = ": the requester named is not checked to be the member who signed it"
	switch owner := VoteKeyOwner(users, &a.Votes[0]); {
	case owner.State == KeyListed:
		return "", ""
	case owner.State == KeyNotListed:
		return "the signed submission is shown as the requester's vote, but the organization's user list does not hold its key as the requester's (a key deleted since, or the vote is not theirs): vigil cannot tell that the requester named signed it", ""
	case users != nil && owner.User == nil:
		return "the organization's user list does not hold the requester shown, whose vote carries the signed submission: vigil cannot tell which member signed it", ""
	case users == nil:
		return "", signedByKey + "the organization's user list was not read, so that key is not checked to be the requester's" + notSigner
	case owner.Unreadable:
		return "", signedByKey + "it is none of the requester's keys vigil can read in the organization's user list, which holds keys of theirs of a type vigil cannot read" + notSigner
	}
	return "", signedByKey + "vigil cannot compare that key with the requester's keys in the organization's user list" + notSigner
}
