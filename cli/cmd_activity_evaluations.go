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

// overallRow marks, in the POLICY column, the row of an approval's
// evaluation that says what it decided overall and why: the policies' rows
// alone read alike for an implicit deny, a wait for the root quorum and the
// own-credentials permission.
const overallRow = "(overall) "

// showEvaluations lists each evaluation's policies by name with their
// outcome, after a row with what the evaluation decided and why, as the
// console explains it (policy.ExplainEvaluation). Its client keeps strings
// exact (the verb is exact): each is escaped once, here, names with
// api.NameText as policy list shows them.
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
	policies, policiesErr := client.ListPolicies(ctx)
	for _, p := range policies {
		names[p.PolicyID] = p.PolicyName
	}
	var rows [][]string
	act, explain := evaluationExplainer(ctx, client, id, policies, policiesErr)
	for _, e := range evals {
		kind := storedOf(act, e) // once per evaluation, for each of its rows
		row := func(outcome, text string) {
			rows = append(rows, []string{api.SanitizeID(e.ID), timeText(e.CreatedAt), api.SanitizeID(e.VoteID), outcome, text})
		}
		if len(e.PolicyEvaluations) == 0 {
			// No policy ran (the root quorum decided, DESIGN.md §4): the row
			// still says how the vote was judged, or the trail would miss the
			// evaluation that completed the activity.
			if kind.NotReturned {
				row("-", "(no policy ran; "+policy.ErrVoteNotReturned.Error()+": not decided again)")
				continue
			}
			outcome, why := explain(e)
			row(outcome, "(no policy ran) "+why)
			continue
		}
		rejection := rejectionOf(kind)
		switch {
		case rejection == api.OutcomeRequiresConsensus:
			// The policies ran, but the service decides nothing on a
			// rejection: their outcomes must not read as what it did.
			row(rejection, "(rejection by "+rejecter(act, e.VoteID)+": left the activity waiting; the policies' outcomes below decided nothing)")
		case !kind.Decided:
			// An approval: what it decided overall rests on the root quorum
			// and the own-credentials permission too, not on the rows below.
			outcome, why := explain(e)
			row(outcome, overallRow+why)
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
			row(api.SanitizeID(o.Outcome), name)
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

// evaluationExplainer returns the activity (nil when it cannot be read) and
// what an evaluation decided, and why, as the console explains it: with
// policy.ExplainEvaluation over the organization's users, quorum and
// policies (policies, as listed, and the error listing them). An evaluation
// that cannot be reproduced (policies, members' tags, keys or features
// changed since) reads "-" and says so. When the activity, the users, the
// configs or the policies cannot be read, it says what could not be read.
// Why quotes the users' exact names (api.Quote): escaped once, here.
func evaluationExplainer(ctx context.Context, client *api.Client, id string, policies []api.Policy, policiesErr error) (*api.Activity, func(api.PolicyEvaluation) (outcome, why string)) {
	unknown := func(what string, err error) func(api.PolicyEvaluation) (string, string) {
		return func(api.PolicyEvaluation) (string, string) {
			return "-", "not worked out: could not read " + what + " (" + ui.Clean(err.Error()) + "); run the command again"
		}
	}
	act, err := client.GetActivity(ctx, id)
	if err != nil {
		return nil, unknown("the activity", err)
	}
	users, err := client.ListUsers(ctx)
	if err != nil {
		return act, unknown("the users", err)
	}
	act = withListedVoterNames(act, users)
	configs, err := client.GetOrganizationConfigs(ctx)
	if err != nil {
		return act, unknown("the organization's configs", err)
	}
	if policiesErr != nil {
		return act, unknown("the policies", policiesErr)
	}
	compiled, errs := policy.PoliciesOf(policies)
	records := policy.NewEvaluationRecords(users, *configs, policies, compiled, errs)
	return act, func(e api.PolicyEvaluation) (string, string) {
		x := policy.ExplainEvaluation(records, *act, e)
		if x.Differs && x.Outcome == "" {
			return "-", ui.Clean(x.Why)
		}
		return api.SanitizeID(x.Outcome), ui.Clean(x.Why)
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
