package policy

import (
	"errors"
	"slices"
	"strings"

	"github.com/vigil-console/vigil/api"
)

// EvaluationRecords is what explaining a stored evaluation needs besides the
// activity: the organization's members (with their tags), its root quorum
// and its policies, compiled. The console and `vigil activity evaluations`
// both explain with ExplainEvaluation over these, so they cannot disagree.
type EvaluationRecords struct {
	Members map[string]Approver
	Quorum  api.Quorum
	ByID    map[string]Policy
	Ordered []Policy // as the service runs them: creation order
	// Unreadable are the stored policies this vigil cannot compile, in
	// creation order: an allow among them is left out of every decision
	// here, so what it decided cannot be reproduced.
	Unreadable []UnreadablePolicy
}

// UnreadablePolicy is a stored policy this vigil cannot compile, and why.
type UnreadablePolicy struct {
	ID, PolicyName, Effect string
	Err                    error
}

// Label names it in a sentence: its name quoted, or its id.
func (u UnreadablePolicy) Label() string {
	if u.PolicyName != "" {
		return api.Quote(u.PolicyName)
	}
	return api.SanitizeID(u.ID)
}

// NewEvaluationRecords pairs the organization's users, configs and policy
// records with the policies compiled from them (PoliciesOf, or a
// CompileCache's) and their errors.
func NewEvaluationRecords(users []api.User, cfg api.OrganizationConfigs, records []api.Policy, compiled []Policy, errs []error) EvaluationRecords {
	byID := make(map[string]Policy, len(compiled))
	for _, p := range compiled {
		byID[p.ID] = p
	}
	return EvaluationRecords{Members: Members(users, cfg), Quorum: cfg.Quorum, ByID: byID, Ordered: compiled,
		Unreadable: unreadableOf(records, compiled, errs)}
}

// unreadableOf pairs the records that did not compile with their errors:
// PoliciesOf returns one error per such record, in the records' order.
func unreadableOf(records []api.Policy, compiled []Policy, errs []error) []UnreadablePolicy {
	ok := make(map[string]bool, len(compiled))
	for _, p := range compiled {
		ok[p.ID] = p.Compiled != nil
	}
	var out []UnreadablePolicy
	for _, r := range records {
		if ok[r.PolicyID] {
			continue
		}
		u := UnreadablePolicy{ID: r.PolicyID, PolicyName: r.PolicyName, Effect: r.Effect, Err: errors.New("does not compile with this vigil")}
		if len(out) < len(errs) {
			u.Err = errs[len(out)]
		}
		out = append(out, u)
	}
	return out
}

// UnreadableByID is the unreadable policy with this id.
func (r EvaluationRecords) UnreadableByID(id string) (UnreadablePolicy, bool) {
	for _, u := range r.Unreadable {
		if u.ID == id {
			return u, true
		}
	}
	return UnreadablePolicy{}, false
}

// ExplainedEvaluation is a stored evaluation in words.
type ExplainedEvaluation struct {
	Explanation
	// Unknown are policy ids of the stored evaluation the records do not
	// hold (created since they were read): the caller reads them again.
	Unknown []string
	// Differs is true when the evaluation cannot be reproduced: the stored
	// per-policy outcomes differ from what the policies and members give
	// today (a member's tags changed since), the overall outcome decided
	// again disagrees with what the record shows the service did (members'
	// keys or features changed since), or the params cannot be read. Why
	// then says so, and the lines show what the service stored.
	Differs bool
}

// ExplainEvaluation reproduces a stored evaluation with Decide: the votes up
// to the evaluation's vote, at the evaluation's time, with the policies the
// service ran (the ids of the stored outcomes, in its order). The service
// stores exactly that, so no migration is needed to explain an evaluation
// after the fact. An evaluation whose vote is not in a (read after the
// evaluations: the service no longer returns it) is not decided again: its
// stored outcomes are shown. A rejection is explained as what the service
// did on it (StoredOutcome): it ended the activity or left it waiting,
// whatever the policies gave for the approvals counted.
func ExplainEvaluation(r EvaluationRecords, a api.Activity, e api.PolicyEvaluation) ExplainedEvaluation {
	var ran []Policy
	var out ExplainedEvaluation
	var unreadable []string // of the policies the service ran: this vigil cannot
	for _, o := range e.PolicyEvaluations {
		if o.PolicyID == "" {
			continue
		}
		if u, ok := r.UnreadableByID(o.PolicyID); ok {
			// Known, but not readable here: reading again would not help.
			unreadable = append(unreadable, "policy "+u.Label()+" ("+api.Sanitize(u.Err.Error())+")")
			continue
		}
		p, ok := r.ByID[o.PolicyID]
		if !ok {
			out.Unknown = append(out.Unknown, o.PolicyID)
			continue
		}
		ran = append(ran, p)
	}
	stored := slices.DeleteFunc(slices.Clone(e.PolicyEvaluations), func(o api.PolicyOutcome) bool { return o.PolicyID == "" })
	kind := StoredOutcome(r.withMemberNames(a), e)
	in, err := InputUpToVote(a, r.Members, e.VoteID, e.CreatedAt.Time())
	if err != nil {
		// Its vote is not returned: decided on the votes left, it would be explained on other
		// approvers than the service counted.
		out.Differs = true
		out.Why = ErrVoteNotReturned.Error() + "; shown as the service stored it, not decided again"
		if kind.Waiting {
			out.Why += "; " + StillWaits
		}
		if kind.Outcome == api.OutcomeRejected {
			out.Outcome, out.Why = kind.Outcome, kind.Why // stored: no vote needed
		}
		out.Policies = r.storedLines(stored)
		return out
	}
	d := Decide(ran, in, QuorumOf(r.Quorum), RootOnly(a.Type))
	out.Explanation = ExplainWith(d, in, r.mayStillVote(a, e.VoteID, in))
	unread := a.IntentUnread()
	recorded := ""
	if !kind.Decided {
		recorded = disagreesWithRecord(a, e.VoteID, d.Outcome)
	}
	if unread || len(out.Unknown) > 0 || len(unreadable) > 0 || !slices.Equal(stored, d.Policies) || recorded != "" {
		// Not reproducible: say so rather than explain something else.
		out.Differs = true
		out.Outcome = ""
		out.Why = "not reproducible: policies or members changed since; the outcomes below are as the service stored them"
		if recorded != "" {
			// The policies gave what they gave then, but the outcome also
			// rests on the members' keys and features (a deletion that
			// would strand a root member) as they are today.
			out.Why = "not reproducible: decided again it comes out " + d.Outcome + ", but " + recorded +
				" (members' keys or features changed since); the outcomes below are as the service stored them"
		}
		if len(unreadable) > 0 {
			out.Why = "not reproducible: " + strings.Join(unreadable, ", ") + " cannot be read by this console; the outcomes below are as the service stored them"
		}
		if unread {
			// Worked out on empty params, the reasons would be a guess.
			out.Why = api.CannotTellParams + "; the outcomes below are as the service stored them"
		}
		out.Policies = r.storedLines(stored)
	}
	if kind.Decided {
		// A rejection: the policies' lines stand, but the service decided by
		// the rejection alone (ended, or left waiting), whatever they gave.
		why := kind.Why
		if out.Differs && kind.Outcome != api.OutcomeRejected {
			why += "; " + out.Why // the lines are the stored ones: say why
		}
		out.Outcome, out.Why = kind.Outcome, why
	}
	return out
}

// disagreesWithRecord says what a's record shows the service did at
// approval voteID when that contradicts outcome, the overall outcome decided
// again; "" when they agree, or when the record cannot tell (a status this
// vigil does not judge by). The service decides at every approval: an
// outcome that allows or fails ends the activity there, so no vote follows
// it and the activity completed or failed; one that waits leaves it open,
// so a vote follows or it still waits.
func disagreesWithRecord(a api.Activity, voteID, outcome string) string {
	i := slices.IndexFunc(a.Votes, func(v api.Vote) bool { return v.ID == voteID })
	if i < 0 {
		return ""
	}
	votedAfter := i < len(a.Votes)-1
	deniedByPolicies := a.Status == api.StatusFailed && (a.Failure == nil || a.Failure.Code == api.CodePermissionDenied)
	switch {
	case outcome == api.OutcomeRequiresConsensus:
		if !votedAfter && (a.Status == api.StatusCompleted || a.Status == api.StatusFailed) {
			return "the service ended the activity at this vote (it is " + a.Status + ")"
		}
	case votedAfter:
		return "the service left the activity open at this vote (later votes were cast)"
	case a.Status == api.StatusConsensusNeeded:
		return "the service left the activity waiting at this vote (it still waits)"
	case outcome == api.OutcomeAllow && deniedByPolicies:
		return "the service failed the activity at this vote (it is " + a.Status + ", permission denied)"
	case Fails(outcome) && a.Status == api.StatusCompleted:
		return "the service completed the activity at this vote"
	}
	return ""
}

// storedLines are the stored per-policy outcomes, as the service stored
// them.
func (r EvaluationRecords) storedLines(stored []api.PolicyOutcome) []PolicyLine {
	var lines []PolicyLine
	for _, o := range stored {
		name := r.ByID[o.PolicyID].Name
		if u, ok := r.UnreadableByID(o.PolicyID); ok {
			name = u.PolicyName
		}
		lines = append(lines, PolicyLine{ID: o.PolicyID, Name: name, Outcome: o.Outcome, Shown: o.Outcome})
	}
	return lines
}

// mayStillVote are the members who had not voted on a when vote upTo was
// cast and whom the service would offer the vote (OthersWhoMayVote, asked at
// in's instant), by name: who could still approve. A member it refuses
// (NOT_A_VOTER) is never named as one.
func (r EvaluationRecords) mayStillVote(a api.Activity, upTo string, in Input) []Approver {
	voted := map[string]bool{}
	for _, v := range a.Votes {
		voted[v.UserID] = true
		if v.ID == upTo {
			break
		}
	}
	out := OthersWhoMayVote(r.Ordered, r.Members, in, RootOnly(a.Type), voted)
	slices.SortFunc(out, func(x, y Approver) int { return strings.Compare(x.Name+x.ID, y.Name+y.ID) })
	return out
}

// withMemberNames is a with each vote's user named as the organization's
// members name its userId: a vote's own "user" is the service's label,
// which no signature covers, and an evaluation's "whose rejection" must not
// take a relabel for the voter. A vote by a member the records do not hold
// keeps its label.
func (r EvaluationRecords) withMemberNames(a api.Activity) api.Activity {
	votes := slices.Clone(a.Votes)
	for i := range votes {
		if m, ok := r.Members[votes[i].UserID]; ok && m.Name != "" {
			votes[i].User.UserName = m.Name
		}
	}
	a.Votes = votes
	return a
}
