package cli

import (
	"context"
	"fmt"
	"slices"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
	"github.com/vigil-console/vigil/ui"
)

// rootQuorumRow stands in the POLICY column for the root quorum's own
// evaluation. It holds a quote, so a policy given this name is printed
// quoted by api.NameText and never reads as the marker.
const rootQuorumRow = "(the root quorum's own)"

// showEvaluations lists each evaluation's policies by name with their outcome.
// Its client keeps strings exact (the verb is exact): each is escaped once,
// here, names with api.NameText as policy list shows them.
func showEvaluations(ctx context.Context, c proc, client *api.Client, id string) error {
	evals, err := client.GetPolicyEvaluations(ctx, id)
	if err != nil {
		return err
	}
	if len(evals) == 0 {
		fmt.Fprintln(c.stderr, "no policy evaluations recorded for this activity")
		return nil
	}
	names := map[string]string{}
	if policies, err := client.ListPolicies(ctx); err == nil {
		for _, p := range policies {
			names[p.PolicyID] = p.PolicyName
		}
	}
	var rows [][]string
	act, decided := noPolicyExplainer(ctx, client, id)
	for _, e := range evals {
		kind := storedOf(act, e) // once per evaluation, for each of its rows
		if len(e.PolicyEvaluations) == 0 {
			// No policy ran (the root quorum decided, DESIGN.md §4): the row
			// still says how the vote was judged, or the trail would miss the
			// evaluation that completed the activity.
			outcome, why := decided(e, kind)
			rows = append(rows, []string{api.SanitizeID(e.ID), timeText(e.CreatedAt), api.SanitizeID(e.VoteID), outcome, why})
			continue
		}
		rejection := rejectionOf(kind)
		if rejection == api.OutcomeRequiresConsensus {
			// The policies ran, but the service decides nothing on a
			// rejection: their outcomes must not read as what it did.
			rows = append(rows, []string{api.SanitizeID(e.ID), timeText(e.CreatedAt), api.SanitizeID(e.VoteID), rejection,
				"(rejection by " + rejecter(act, e.VoteID) + ": left the activity waiting; the policies' outcomes below decided nothing)"})
		}
		for _, o := range e.PolicyEvaluations {
			name, listed := names[o.PolicyID]
			switch {
			case o.PolicyID == "" && o.Outcome == api.OutcomeRejected:
				// The service's mark of a rejection that ended the activity:
				// the voter's, not the root quorum's.
				name = "(rejection by " + rejecter(act, e.VoteID) + ": no way to reach consensus)"
			case o.PolicyID == "":
				name = rootQuorumRow
			case !listed:
				name = "policy " + api.SanitizeID(o.PolicyID)
			default:
				name = api.NameText(name)
			}
			if rejection != "" && o.PolicyID != "" {
				name += " (on a rejection: decided nothing)" // read alone, the row still says so
			} else if note := notReturnedNote(kind); note != "" && o.PolicyID != "" {
				name += " " + note
			}
			rows = append(rows, []string{api.SanitizeID(e.ID), timeText(e.CreatedAt), api.SanitizeID(e.VoteID), api.SanitizeID(o.Outcome), name})
		}
	}
	return table(c.stdout, []string{"EVALUATION", "AT", "VOTE", "OUTCOME", "POLICY"}, rows)
}

// storedOf is policy.StoredOutcome of e on act, worked out once per
// evaluation and passed to what shows its rows; the zero Stored (nothing
// known) when act (nil) could not be read.
func storedOf(act *api.Activity, e api.PolicyEvaluation) policy.Stored {
	if act == nil {
		return policy.Stored{}
	}
	return policy.StoredOutcome(*act, e)
}

// rejectionOf is what the service did on an evaluation whose vote is a
// rejection, by its kind (storedOf): OUTCOME_REJECTED when it ended the
// activity, OUTCOME_REQUIRES_CONSENSUS when it left it waiting; "" for an
// approval, or when the activity could not be read to tell.
func rejectionOf(kind policy.Stored) string {
	if !kind.Decided || kind.NotReturned {
		return ""
	}
	return kind.Outcome
}

// notReturnedNote marks the policy rows of an evaluation whose vote the
// service no longer returns (the activity is read after the evaluations):
// shown as stored, and, while the activity still waits, as deciding
// nothing. "" otherwise, or when the activity could not be read.
func notReturnedNote(kind policy.Stored) string {
	switch {
	case kind.Waiting:
		return "(" + policy.StillWaits + ")"
	case kind.NotReturned:
		return "(vote not returned by the service now, an earlier round's: as stored, not decided again)"
	}
	return ""
}

// rejecter names who cast the rejection voteID ("a member" when the
// activity could not be read). Its client keeps names exact, escaped once
// here (api.Quote).
func rejecter(act *api.Activity, voteID string) string {
	if act == nil {
		return "a member"
	}
	return policy.VoterName(*act, voteID)
}

// noPolicyExplainer returns the activity (nil when it cannot be read) and
// what an evaluation in which no policy ran decided, and why, as the console
// explains it: a rejection decided nothing but what policy.StoredOutcome
// says; an approval is reproduced with policy.Decide and policy.Explain on
// the activity's votes up to the evaluation's vote, against the root quorum.
// An evaluation whose vote is not in the activity (read after the
// evaluations) is not decided again: the service no longer returns it. When the
// activity, the users or the quorum cannot be read, it says only that no
// policy ran.
func noPolicyExplainer(ctx context.Context, client *api.Client, id string) (*api.Activity, func(api.PolicyEvaluation, policy.Stored) (outcome, why string)) {
	unknown := func(api.PolicyEvaluation, policy.Stored) (string, string) {
		return "-", "(no policy ran: decided by the root quorum alone)"
	}
	act, err := client.GetActivity(ctx, id)
	if err != nil {
		return nil, unknown
	}
	users, err := client.ListUsers(ctx)
	if err != nil {
		return act, unknown
	}
	act = withListedVoterNames(act, users)
	configs, err := client.GetOrganizationConfigs(ctx)
	if err != nil {
		return act, unknown
	}
	members := policy.Members(users, *configs)
	return act, func(e api.PolicyEvaluation, kind policy.Stored) (string, string) {
		// kind is storedOf(act, e). Why quotes the users' exact names
		// (api.Quote): escaped once.
		if kind.NotReturned {
			return "-", "(no policy ran; " + policy.ErrVoteNotReturned.Error() + ": not decided again)"
		} else if kind.Decided {
			return api.SanitizeID(kind.Outcome), "(no policy ran) " + ui.Clean(kind.Why)
		}
		// No policy: the votes and the quorum decide, never the params, so an
		// intent whose params vigil cannot read (api.Intent.ParamsUnread)
		// is judged exactly here too.
		in, err := policy.InputUpToVote(*act, members, e.VoteID, e.CreatedAt.Time())
		if err != nil {
			return unknown(e, kind)
		}
		d := policy.Decide(nil, in, policy.QuorumOf(configs.Quorum), policy.RootOnly(act.Type))
		x := policy.Explain(d)
		return api.SanitizeID(x.Outcome), "(no policy ran) " + ui.Clean(x.Why)
	}
}

// withListedVoterNames is a copy of act whose votes' users are named as
// users (the organization's list) names their user ids: a vote's own
// "user" is the service's label, which no signature covers, and "rejection
// by" must not take a relabel for the voter. A vote by a user the list
// does not hold keeps its label.
func withListedVoterNames(act *api.Activity, users []api.User) *api.Activity {
	named := *act
	named.Votes = slices.Clone(act.Votes)
	for i := range named.Votes {
		if who := api.CasterOf(users, &named.Votes[i]); who.User != nil && who.User.UserName != "" {
			named.Votes[i].User.UserName = who.User.UserName
		}
	}
	return &named
}
