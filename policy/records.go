package policy

import (
	"fmt"
	"slices"
	"time"

	"github.com/vigil-console/vigil/api"
)

// This file builds an evaluation's Input from the service's records. The local
// service (server/evaluate.go) and the console's simulator and explanations
// both go through InputFor, so what the simulator evaluates cannot drift from
// what the service decides.

// RootOnly reports whether only the root quorum can approve activities of this
// type (the policies are never consulted).
func RootOnly(activityType string) bool { return activityType == api.TypeSetOrganizationFeature }

// Members maps every user of the organization to the approver they are when
// they approve: their tags, and whether they belong to the root quorum.
func Members(users []api.User, quorum api.Quorum) map[string]Approver {
	out := make(map[string]Approver, len(users))
	for _, u := range users {
		out[u.UserID] = Approver{ID: u.UserID, Name: u.UserName, Email: u.UserEmail,
			Tags: append([]string{}, u.UserTags...), Root: slices.Contains(quorum.UserIDs, u.UserID)}
	}
	return out
}

// QuorumOf converts the wire root quorum.
func QuorumOf(q api.Quorum) Quorum {
	return Quorum{Threshold: q.Threshold, UserIDs: slices.Clone(q.UserIDs)}
}

// InputFor is the input of an evaluation of an activity of type typ with these
// parameters after these votes (in the order cast): the approvers are the
// members who approved, the credentials those approvals were made with. A
// vote by somebody who is not a member adds a credential but no approver.
func InputFor(typ string, params any, votes []api.Vote, members map[string]Approver, now time.Time) Input {
	in := Input{Activity: ActivityFor(typ, params), Now: now}
	for _, v := range votes {
		if v.Selection != api.VoteApproved {
			continue
		}
		if u, ok := members[v.UserID]; ok {
			in.Approvers = append(in.Approvers, u)
		}
		in.Credentials = append(in.Credentials, Credential{
			ID: v.ID, Type: api.CredentialTypeOfScheme(v.Scheme), PublicKey: v.PublicKey, UserID: v.UserID})
	}
	return in
}

// InputOfActivity is InputFor an activity record as the service returns it,
// counting the votes cast up to and including the vote upTo (all of them when
// upTo is empty or not found). now is the evaluation's time (a stored
// evaluation's createdAt); when zero, the time of the last vote counted, or
// of the activity's creation.
func InputOfActivity(a api.Activity, members map[string]Approver, upTo string, now time.Time) Input {
	votes := a.Votes
	if i := slices.IndexFunc(votes, func(v api.Vote) bool { return v.ID == upTo }); upTo != "" && i >= 0 {
		votes = votes[:i+1]
	}
	if !now.IsZero() {
		_, params := a.Intent.Params()
		return InputFor(a.Type, params, votes, members, now)
	}
	now = a.CreatedAt.Time()
	if len(votes) > 0 {
		if t := votes[len(votes)-1].CreatedAt.Time(); !t.IsZero() {
			now = t
		}
	}
	_, params := a.Intent.Params()
	return InputFor(a.Type, params, votes, members, now)
}

// PoliciesOf compiles the organization's policy records, in the order given
// (list_policies returns them in creation order, the order the service
// evaluates them). A record that does not compile is left out, as the
// service leaves it out; its error is returned beside.
func PoliciesOf(records []api.Policy) ([]Policy, []error) {
	out := make([]Policy, 0, len(records))
	var errs []error
	for _, r := range records {
		c, err := Compile(r.Condition, r.Consensus)
		if err != nil {
			errs = append(errs, fmt.Errorf("policy %s: %w", r.PolicyID, err))
			continue
		}
		out = append(out, Policy{ID: r.PolicyID, Name: r.PolicyName, Effect: r.Effect, Compiled: c})
	}
	return out, errs
}
