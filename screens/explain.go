package screens

import (
	"errors"
	"slices"
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
	"github.com/vigil-console/vigil/ui/theme"
)

// evaluationContext is what explaining an evaluation needs besides the
// activity: the organization's members (with their tags), its root quorum and
// its policies, compiled, by id.
type evaluationContext struct {
	members  map[string]policy.Approver
	quorum   api.Quorum
	policies map[string]policy.Policy
	ordered  []policy.Policy // as the service runs them: creation order
	load     *orgLoad        // this load's mark, for caches (explanations)
	// readsClock: a policy's verdict may change with the clock alone (a
	// time expression), so what a vote would do may too.
	readsClock bool
	// unreadable are the stored policies this vigil cannot compile (stored
	// by a newer vigil, or accepted by the real service), in creation order:
	// an allow among them is left out of every decision here, so what it
	// decided cannot be reproduced, and the screens say so.
	unreadable []unreadablePolicy
}

// unreadablePolicy is a stored policy the console cannot compile, and why.
type unreadablePolicy struct {
	ID, PolicyName, Effect string
	Err                    error
}

// label names it in a sentence: its name quoted, or its id.
func (u unreadablePolicy) label() string {
	if u.PolicyName != "" {
		return api.Quote(u.PolicyName)
	}
	return api.SanitizeID(u.ID)
}

// unreadableOf pairs the records that did not compile with their errors:
// PoliciesOf returns one error per such record, in the records' order.
func unreadableOf(records []api.Policy, compiled []policy.Policy, errs []error) []unreadablePolicy {
	ok := make(map[string]bool, len(compiled))
	for _, p := range compiled {
		ok[p.ID] = p.Compiled != nil
	}
	var out []unreadablePolicy
	for _, r := range records {
		if ok[r.PolicyID] {
			continue
		}
		u := unreadablePolicy{ID: r.PolicyID, PolicyName: r.PolicyName, Effect: r.Effect, Err: errors.New("does not compile with this vigil")}
		if len(out) < len(errs) {
			u.Err = errs[len(out)]
		}
		out = append(out, u)
	}
	return out
}

// unreadableSummary says which stored policies this console cannot read, in
// one line ("" when none): "policy 'X' (EFFECT_ALLOW) cannot be read by this
// console: …; …".
func (ec evaluationContext) unreadableSummary() string {
	var parts []string
	for _, u := range ec.unreadable {
		parts = append(parts, "policy "+u.label()+" ("+u.Effect+") cannot be read by this console: "+api.Sanitize(u.Err.Error()))
	}
	return strings.Join(parts, "; ")
}

// unreadableByID is the unreadable policy with this id.
func (ec evaluationContext) unreadableByID(id string) (unreadablePolicy, bool) {
	for _, u := range ec.unreadable {
		if u.ID == id {
			return u, true
		}
	}
	return unreadablePolicy{}, false
}

// newEvaluationContext compiles the records through cache, so that a reload
// of unchanged policies compiles nothing; a nil cache compiles them all. cfg
// is the organization's quorum and features (whether passkeys count as able
// to sign, policy.Members).
func newEvaluationContext(cache *policy.CompileCache, users []api.User, cfg api.OrganizationConfigs, records []api.Policy) evaluationContext {
	quorum := cfg.Quorum
	var compiled []policy.Policy
	var errs []error
	if cache != nil {
		compiled, errs = cache.PoliciesOf(records)
	} else {
		compiled, errs = policy.PoliciesOf(records)
	}
	byID := make(map[string]policy.Policy, len(compiled))
	for _, p := range compiled {
		byID[p.ID] = p
	}
	readsClock := slices.ContainsFunc(compiled, func(p policy.Policy) bool { return p.Compiled != nil && p.Compiled.ReadsClock() })
	return evaluationContext{members: policy.Members(users, cfg), quorum: quorum, policies: byID, ordered: compiled,
		load: &orgLoad{}, readsClock: readsClock, unreadable: unreadableOf(records, compiled, errs)}
}

// briefPolicies is how many allowing (or denying) policies a one-line explanation names
// (the vote dialog's prediction, a list's row) before counting the rest:
// the evaluations view names them all.
const briefPolicies = 3

// explained is a stored evaluation in words.
type explained struct {
	policy.Explanation
	// Unknown are policy ids of the stored evaluation the console does not
	// know (created since the last load): the caller reloads the policies.
	Unknown []string
	// Differs is true when the stored per-policy outcomes differ from what
	// the policies and members give today (a member's tags changed since),
	// or when the console cannot work them out (it cannot read the intent's
	// params): the lines then show what the service stored.
	Differs bool
}

// explainEvaluation reproduces a stored evaluation with policy.Decide: the
// votes up to the evaluation's vote, at the evaluation's time, with the
// policies the service ran (the ids of the stored outcomes, in its order).
// The service stores exactly that, so no migration is needed to explain an
// evaluation after the fact. An evaluation whose vote is not in a (read
// after the evaluations: the service no longer returns it) is not decided
// again: its stored outcomes are shown. A rejection is explained as what the
// service did on it (policy.StoredOutcome): it ended the activity or left it
// waiting, whatever the policies gave for the approvals counted.
func explainEvaluation(ec evaluationContext, a api.Activity, e api.PolicyEvaluation) explained {
	var ran []policy.Policy
	var out explained
	var unreadable []string // of the policies the service ran: the console cannot
	for _, o := range e.PolicyEvaluations {
		if o.PolicyID == "" {
			continue
		}
		if u, ok := ec.unreadableByID(o.PolicyID); ok {
			// Known, but not readable here: a reload would not help.
			unreadable = append(unreadable, "policy "+u.label()+" ("+api.Sanitize(u.Err.Error())+")")
			continue
		}
		p, ok := ec.policies[o.PolicyID]
		if !ok {
			out.Unknown = append(out.Unknown, o.PolicyID)
			continue
		}
		ran = append(ran, p)
	}
	stored := slices.DeleteFunc(slices.Clone(e.PolicyEvaluations), func(o api.PolicyOutcome) bool { return o.PolicyID == "" })
	kind := policy.StoredOutcome(withMemberNames(ec, a), e)
	in, err := policy.InputUpToVote(a, ec.members, e.VoteID, e.CreatedAt.Time())
	if err != nil {
		// Its vote is not returned: decided on the votes left, it would be explained on other
		// approvers than the service counted.
		out.Differs = true
		out.Why = policy.ErrVoteNotReturned.Error() + "; shown as the service stored it, not decided again"
		if kind.Waiting {
			out.Why += "; " + policy.StillWaits
		}
		if kind.Outcome == api.OutcomeRejected {
			out.Outcome, out.Why = kind.Outcome, kind.Why // stored: no vote needed
		}
		out.Policies = ec.storedLines(stored)
		return out
	}
	d := policy.Decide(ran, in, policy.QuorumOf(ec.quorum), policy.RootOnly(a.Type))
	out.Explanation = policy.ExplainWith(d, in, ec.mayStillVote(a, e.VoteID, in))
	unread := a.IntentUnread()
	if unread || len(out.Unknown) > 0 || len(unreadable) > 0 || !slices.Equal(stored, d.Policies) {
		// Not reproducible: say so rather than explain something else.
		out.Differs = true
		out.Outcome = ""
		out.Why = "not reproducible: policies or members changed since; the outcomes below are as the service stored them"
		if len(unreadable) > 0 {
			out.Why = "not reproducible: " + strings.Join(unreadable, ", ") + " cannot be read by this console; the outcomes below are as the service stored them"
		}
		if unread {
			// Worked out on empty params, the reasons would be a guess.
			out.Why = api.CannotTellParams + "; the outcomes below are as the service stored them"
		}
		out.Policies = ec.storedLines(stored)
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

// storedLines are the stored per-policy outcomes, as the service stored
// them.
func (ec evaluationContext) storedLines(stored []api.PolicyOutcome) []policy.PolicyLine {
	var lines []policy.PolicyLine
	for _, o := range stored {
		name := ec.policies[o.PolicyID].Name
		if u, ok := ec.unreadableByID(o.PolicyID); ok {
			name = u.PolicyName
		}
		lines = append(lines, policy.PolicyLine{ID: o.PolicyID, Name: name, Outcome: o.Outcome, Shown: o.Outcome})
	}
	return lines
}

// mayStillVote are the members who had not voted on a when vote upTo was
// cast and whom the service would offer the vote (othersWhoMayVote, asked at
// in's instant), by name: who could still approve. A member it refuses
// (NOT_A_VOTER) is never named as one.
func (ec evaluationContext) mayStillVote(a api.Activity, upTo string, in policy.Input) []policy.Approver {
	voted := map[string]bool{}
	for _, v := range a.Votes {
		voted[v.UserID] = true
		if v.ID == upTo {
			break
		}
	}
	out := othersWhoMayVote(ec, in, policy.RootOnly(a.Type), voted)
	slices.SortFunc(out, func(x, y policy.Approver) int { return strings.Compare(x.Name+x.ID, y.Name+y.ID) })
	return out
}

// policyLabel is how a policy line reads: its name and id, or the id alone.
func policyLabel(l policy.PolicyLine) string { return policyLabelQuoted(l, api.Quote) }

// policyLabelQuoted is policyLabel with the name quoted by quote.
func policyLabelQuoted(l policy.PolicyLine, quote func(string) string) string {
	if l.Name != "" {
		return quote(l.Name) + " (" + api.SanitizeID(l.ID) + ")"
	}
	return api.SanitizeID(l.ID)
}

// outcomeStyle colours an outcome: allowed good, denied or failed bad,
// waiting a warning.
func outcomeStyle(th *theme.Theme, outcome string) lipgloss.Style {
	switch outcome {
	case api.OutcomeAllow:
		return th.Good
	case api.OutcomeRequiresConsensus, api.OutcomeRequiresAuthenticators:
		return th.Warn
	}
	return th.Bad
}

// withMemberNames is a with each vote's user named as the organization's
// members name its userId (ec.members, from the user list): a vote's own
// "user" is the service's label, which no signature covers, and an
// evaluation's "whose rejection" must not take a relabel for the voter.
// A vote by a member the list does not hold keeps its label.
func withMemberNames(ec evaluationContext, a api.Activity) api.Activity {
	votes := slices.Clone(a.Votes)
	for i := range votes {
		if m, ok := ec.members[votes[i].UserID]; ok && m.Name != "" {
			votes[i].User.UserName = m.Name
		}
	}
	a.Votes = votes
	return a
}
