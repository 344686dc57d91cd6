package screens

import (
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
	unreadable []policy.UnreadablePolicy
}

// records is ec as policy.ExplainEvaluation reads it.
func (ec evaluationContext) records() policy.EvaluationRecords {
	return policy.EvaluationRecords{Members: ec.members, Quorum: ec.quorum, ByID: ec.policies, Ordered: ec.ordered, Unreadable: ec.unreadable}
}

// unreadableSummary says which stored policies this console cannot read, in
// one line ("" when none): policy "X" (ALLOW) cannot be read by this
// console: …; … (an effect as api.EffectText writes it).
func (ec evaluationContext) unreadableSummary() string {
	var parts []string
	for _, u := range ec.unreadable {
		parts = append(parts, "policy "+u.Label()+" ("+api.EffectText(u.Effect)+") cannot be read by this console: "+api.Sanitize(u.Err.Error()))
	}
	return strings.Join(parts, "; ")
}

// unreadableByID is the unreadable policy with this id.
func (ec evaluationContext) unreadableByID(id string) (policy.UnreadablePolicy, bool) {
	return ec.records().UnreadableByID(id)
}

// newEvaluationContext compiles the records through cache, so that a reload
// of unchanged policies compiles nothing; a nil cache compiles them all. cfg
// is the organization's quorum and features (whether passkeys count as able
// to sign, policy.Members).
func newEvaluationContext(cache *policy.CompileCache, users []api.User, cfg api.OrganizationConfigs, records []api.Policy) evaluationContext {
	var compiled []policy.Policy
	var errs []error
	if cache != nil {
		compiled, errs = cache.PoliciesOf(records)
	} else {
		compiled, errs = policy.PoliciesOf(records)
	}
	r := policy.NewEvaluationRecords(users, cfg, records, compiled, errs)
	readsClock := slices.ContainsFunc(compiled, func(p policy.Policy) bool { return p.Compiled != nil && p.Compiled.ReadsClock() })
	return evaluationContext{members: r.Members, quorum: r.Quorum, policies: r.ByID, ordered: r.Ordered,
		load: &orgLoad{}, readsClock: readsClock, unreadable: r.Unreadable}
}

// briefPolicies is how many allowing (or denying) policies a one-line explanation names
// (the vote dialog's prediction, a list's row) before counting the rest:
// the evaluations view names them all.
const briefPolicies = 3

// explained is a stored evaluation in words (policy.ExplainEvaluation).
type explained = policy.ExplainedEvaluation

// explainEvaluation is policy.ExplainEvaluation over ec: the one explanation
// the console and `vigil activity evaluations` share.
func explainEvaluation(ec evaluationContext, a api.Activity, e api.PolicyEvaluation) explained {
	return policy.ExplainEvaluation(ec.records(), a, e)
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
