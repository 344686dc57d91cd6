package policy

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/types"

	"github.com/vigil-console/vigil/api"
)

// Policy is one policy of an organization, compiled.
type Policy struct {
	ID       string
	Name     string // for explanations; the ID stands in when empty
	Effect   string // api.EffectAllow or api.EffectDeny
	Compiled *Compiled
	// CompileErr is why a stored policy did not compile (Compiled is nil):
	// one stored by a newer vigil, say. Such a deny still takes part (Decide
	// fails closed on it); such an allow is left out (PoliciesOf).
	CompileErr error
}

// Quorum is the organization's root quorum.
type Quorum struct {
	Threshold int
	UserIDs   []string
}

// Decision is the outcome of evaluating an activity against the policies.
type Decision struct {
	Outcome string // one of api.Outcome*
	// Policies holds the verdict of each policy that ran, in input order:
	// ALLOW (applies, consensus met), REQUIRES_CONSENSUS (an allow that applies
	// but whose consensus is not met), DENY_EXPLICIT (a deny that applies),
	// DENY_IMPLICIT (does not apply: condition false, or a deny whose
	// consensus is not met) or ERROR (failed to evaluate). It is empty when
	// the root quorum decided or the activity is root-only: no policy ran.
	Policies []api.PolicyOutcome
	Reason   string // one sentence for people
	// Details says, for each policy of Policies, what its expressions gave:
	// what Explain turns into words.
	Details []PolicyDetail
	// RootApprovers are the root quorum members among the approvers, and
	// RootNeeded the quorum's threshold.
	RootApprovers []Approver
	RootNeeded    int
	// Exhausted is true when the work budget (DecideBudget) ran out before
	// every policy was judged: those not judged are OUTCOME_ERROR in
	// Policies, with errNotJudged. The outcome then fails safe: a deny found
	// is decisive (deny always wins), and so is an allow found once every
	// deny was judged; otherwise it is REQUIRES_CONSENSUS (undecided: the
	// activity waits, and only the root quorum is sure to complete it).
	Exhausted bool
	// Budget is the work budget the policies were judged within, in cost
	// units (DecideBudget, or DecideWithin's); 0 when unmetered.
	Budget uint64
	// Work is the work charged to the policies, in cost units.
	Work uint64
	// OwnCredential is true when the outcome is ALLOW only because a user
	// may change their own credentials (OwnCredentialChange): no policy
	// allowed, denied or asked a consensus of it.
	OwnCredential bool
}

// PolicyDetail is what one policy's expressions gave in a decision.
type PolicyDetail struct {
	Policy  Policy
	Outcome string
	Result  Result // active? condition matched? consensus met?
	Err     error  // why it is OUTCOME_ERROR
}

// Result is the evaluation of one policy's expressions.
type Result struct {
	// Active is false when the time expression is false: the policy is
	// skipped (OUTCOME_TIME_INACTIVE). Condition and Consensus are then false.
	Active bool
	// Condition is true when the policy applies. It is false when the
	// condition read a keyword the activity does not have (Missing).
	Condition bool
	// Consensus is the consensus; false whenever Condition is.
	Consensus bool
	// Missing lists the keywords the condition read that the activity does
	// not have (e.g. eth.tx on a create_policy activity). The condition then
	// does not apply, whatever the rest of it says: such a policy never
	// allows and never denies. The real service does not short-circuit, so
	// `false && eth.tx.to == 'x'` is noticed too (see prefilter.go).
	Missing []string
}

// Evaluate runs the condition and, when the condition holds, the consensus.
// An empty condition or consensus counts as true. consensus is false whenever
// condition is, and both are false while the time expression is false.
func (c *Compiled) Evaluate(in Input) (condition, consensus bool, err error) {
	r, err := c.Run(in)
	return r.Condition, r.Consensus, err
}

// Run evaluates the policy's expressions against one input: time, then
// condition, then (when the condition holds) consensus.
func (c *Compiled) Run(in Input) (Result, error) {
	act, err := in.activation()
	if err != nil {
		return Result{}, err
	}
	return c.run(act)
}

func (c *Compiled) run(act *activation) (Result, error) {
	r, err := c.applies(act)
	if err != nil || !r.Condition {
		return r, err
	}
	if r.Consensus, err = run(c.consensusPrg, act); err != nil {
		return Result{Active: true, Condition: true}, fmt.Errorf("%s: %w", FieldConsensus, err)
	}
	return r, nil
}

// applies evaluates the time and the condition only: whether the policy
// applies to the activity, whoever approves it.
func (c *Compiled) applies(act *activation) (Result, error) {
	var r Result
	var err error
	if c.timePrg != nil {
		if _, ok := act.vars[varNow]; !ok {
			return r, fmt.Errorf("%s: %w", FieldTime, errNoClock)
		}
	}
	if r.Active, err = run(c.timePrg, act); err != nil {
		return r, fmt.Errorf("%s: %w", FieldTime, err)
	}
	if !r.Active {
		return r, nil
	}
	if missing, settled := c.filter.decide(act); settled {
		return Result{Active: true, Missing: missing}, nil
	}
	act.rec.reset()
	r.Condition, err = run(c.conditionPrg, act)
	if len(act.rec.missing) > 0 {
		r.Missing = slices.Clone(act.rec.missing)
		return Result{Active: true, Missing: r.Missing}, nil
	}
	if err != nil {
		return Result{Active: true}, fmt.Errorf("%s: %w", FieldCondition, err)
	}
	return r, nil
}

func run(prg cel.Program, act *activation) (bool, error) {
	if prg == nil {
		return true, nil
	}
	out, err := eval(prg, act)
	if err != nil {
		return false, err
	}
	b, ok := out.(types.Bool)
	if !ok {
		return false, fmt.Errorf("evaluated to %s, not a bool", out.Type().TypeName())
	}
	return bool(b), nil
}

// verdict is one policy's own outcome, with the error that caused an
// OUTCOME_ERROR.
type verdict struct {
	outcome string
	result  Result
	err     error
	missing []string // keywords the condition read that the activity lacks
}

// judge is one policy's own verdict:
//   - OUTCOME_ERROR: an expression failed to evaluate, or the policy is malformed;
//   - OUTCOME_TIME_INACTIVE: its time expression is false: it is skipped;
//   - OUTCOME_DENY_IMPLICIT: it does not apply (condition false, a keyword
//     the activity lacks, or a deny whose consensus is not met);
//   - OUTCOME_DENY_EXPLICIT: an applicable deny;
//   - OUTCOME_ALLOW: an applicable allow whose consensus is met;
//   - OUTCOME_REQUIRES_CONSENSUS: an allow whose condition holds but whose
//     consensus is not met yet.
func (p Policy) judge(act *activation) verdict {
	if p.Compiled == nil {
		if p.CompileErr != nil {
			return verdict{outcome: api.OutcomeError, err: fmt.Errorf("does not compile with this vigil: %w", p.CompileErr)}
		}
		return verdict{outcome: api.OutcomeError, err: errors.New("policy was not compiled")}
	}
	if p.Effect != api.EffectAllow && p.Effect != api.EffectDeny {
		return verdict{outcome: api.OutcomeError, err: fmt.Errorf("unknown effect %q", p.Effect)}
	}
	r, err := p.Compiled.run(act)
	v := p.verdictOf(r, err)
	v.result = r
	return v
}

func (p Policy) verdictOf(r Result, err error) verdict {
	cond, cons := r.Condition, r.Consensus
	switch {
	case err != nil:
		return verdict{outcome: api.OutcomeError, err: err}
	case !r.Active:
		return verdict{outcome: api.OutcomeTimeInactive}
	case len(r.Missing) > 0:
		return verdict{outcome: api.OutcomeDenyImplicit, missing: r.Missing}
	case !cond:
		return verdict{outcome: api.OutcomeDenyImplicit}
	case p.Effect == api.EffectDeny && cons:
		return verdict{outcome: api.OutcomeDenyExplicit}
	case p.Effect == api.EffectDeny:
		return verdict{outcome: api.OutcomeDenyImplicit}
	case cons:
		return verdict{outcome: api.OutcomeAllow}
	default:
		return verdict{outcome: api.OutcomeRequiresConsensus}
	}
}

// rootApprovers are the distinct approvers who are root quorum members: an
// approver is one if marked Root or listed in the quorum.
func rootApprovers(approvers []Approver, q Quorum) []Approver {
	seen := make(map[string]bool, len(approvers))
	var out []Approver
	for _, a := range approvers {
		if seen[a.ID] {
			continue
		}
		seen[a.ID] = true
		if a.Root || slices.Contains(q.UserIDs, a.ID) {
			out = append(out, a)
		}
	}
	return out
}

// threshold is the quorum's threshold, never below one: a quorum of zero
// would let anybody bypass every policy.
func (q Quorum) threshold() int { return max(q.Threshold, 1) }

// Decide applies the policies to an activity, in this order (DESIGN.md §4):
//
//  1. at least threshold root quorum members among the approvers → ALLOW,
//     bypassing the policies;
//  2. any applicable EFFECT_DENY → DENY_EXPLICIT (deny always wins);
//  3. an applicable EFFECT_ALLOW whose consensus is met → ALLOW;
//  4. an EFFECT_ALLOW whose condition holds but whose consensus is not met
//     yet, or any root member among the approvers → REQUIRES_CONSENSUS;
//  5. a user changing their own credentials → ALLOW (OwnCredentialChange);
//  6. otherwise DENY_IMPLICIT.
//
// A policy whose evaluation fails is OUTCOME_ERROR and neither allows nor
// denies, except a deny that cannot be read or that ran out of its cost
// limit: it might deny, so the activity waits (REQUIRES_CONSENSUS) for the
// root quorum unless another deny applies. rootOnly (set_organization_feature) skips steps 2–4: only the root
// quorum completes such an activity.
//
// The policies' work is bounded by DecideBudget; see Decision.Exhausted.
func Decide(policies []Policy, in Input, quorum Quorum, rootOnly bool) Decision {
	return decide(policies, in, quorum, rootOnly, &meter{budget: DecideBudget})
}

// DecideBudget bounds the work of one Decide, in CEL cost units (the units
// of CostLimit, charged as for ReachBudget: each policy judged costs its
// expressions plus judgeCost). The local service decides in its single
// writer at every submission and vote, so an organization of many costly
// policies must not hold every organization's writes. 1,000,000 units is
// about 80 ms of the costliest expressions (docs/performance.md); the 91
// documented example policies together cost about 1,900 units, and the
// heaviest realistic policy the limits are sized for (a pairwise check over
// 100 approvers and a 500-entry allowlist) about 49,000, so twenty of those
// fit, and so does any one policy the limits accept (three expressions of at
// most CostLimit each) beside 400,000 units of others. The budget is checked
// before each expression, so a decision overruns it by one expression at
// most.
const DecideBudget = 1_000_000

// errNotJudged is the error of a policy that Decide did not judge because
// the work budget ran out first; a decision records it as notJudged, which
// states the budget it ran within.
var errNotJudged = errors.New("not evaluated: the decision ran out of its work budget first")

// decide is Decide charging its work to m (nil: unmetered). When m's budget
// runs out before every policy is judged, the decision is Exhausted and its
// outcome is one a full evaluation could not contradict, or none.
func decide(policies []Policy, in Input, quorum Quorum, rootOnly bool, m *meter) Decision {
	rootMembers := rootApprovers(in.Approvers, quorum)
	roots, anyRoot := len(rootMembers), len(rootMembers) > 0
	need := quorum.threshold()
	if roots >= need {
		return Decision{Outcome: api.OutcomeAllow, RootApprovers: rootMembers, RootNeeded: need,
			Reason: fmt.Sprintf("approved by the root quorum (%d of %d root members needed)", roots, need)}
	}
	if rootOnly {
		if anyRoot {
			return Decision{Outcome: api.OutcomeRequiresConsensus, RootApprovers: rootMembers, RootNeeded: need,
				Reason: fmt.Sprintf("only the root quorum can approve this activity: %d of %d root approvals so far", roots, need)}
		}
		return Decision{Outcome: api.OutcomeDenyImplicit, RootNeeded: need,
			Reason: "only the root quorum can approve this activity, and no root member has approved it"}
	}

	start := m.used()
	var act *activation
	verdicts := make([]*verdict, len(policies))
	denialsJudged := false
	if !m.exhausted() {
		m.charge(judgeCost) // preparing the input
		var err error
		if act, err = in.activation(); err != nil {
			return Decision{Outcome: api.OutcomeError, RootNeeded: need, Reason: fmt.Sprintf("cannot prepare the evaluation: %v", err)}
		}
		// Denies first: a deny found is decisive whatever the rest say, and
		// once every deny is judged an allow found is decisive too, so a
		// decision the budget cuts short still answers whenever it can.
		denialsJudged = judgeWithin(policies, verdicts, act, m, true)
		judgeWithin(policies, verdicts, act, m, false)
	}

	d := Decision{Policies: make([]api.PolicyOutcome, 0, len(policies)), RootApprovers: rootMembers, RootNeeded: need,
		Details: make([]PolicyDetail, 0, len(policies)), Work: m.used() - start, Budget: m.limit()}
	var denied, allowed, waiting, failed, lacking, inactive, unjudged, unreadable, overLimit []string
	for i, p := range policies {
		v := verdicts[i]
		if v == nil {
			d.Exhausted = true
			unjudged = append(unjudged, p.ID)
			v = &verdict{outcome: api.OutcomeError, err: notJudged{m.budget}}
		}
		d.Policies = append(d.Policies, api.PolicyOutcome{PolicyID: p.ID, Outcome: v.outcome})
		d.Details = append(d.Details, PolicyDetail{Policy: p, Outcome: v.outcome, Result: v.result, Err: v.err})
		switch {
		case errors.Is(v.err, errNotJudged):
		case v.outcome == api.OutcomeDenyExplicit:
			denied = append(denied, p.ID)
		case v.outcome == api.OutcomeAllow:
			allowed = append(allowed, p.ID)
		case v.outcome == api.OutcomeRequiresConsensus:
			waiting = append(waiting, p.ID)
		case v.outcome == api.OutcomeError && p.Effect == api.EffectDeny && p.Compiled == nil:
			// A deny that cannot be read might deny this activity: it is
			// not ignored, the activity waits (below).
			unreadable = append(unreadable, fmt.Sprintf("%s (%v)", p.ID, v.err))
		case v.outcome == api.OutcomeError && p.Effect == api.EffectDeny && errors.Is(v.err, errCostLimit):
			// The submitter chooses the activity's size, and so whether a
			// deny's work passes the cost limit: such a deny is not judged,
			// and could still deny (below).
			overLimit = append(overLimit, p.ID)
		case v.outcome == api.OutcomeError:
			failed = append(failed, fmt.Sprintf("%s (%v)", p.ID, v.err))
		case v.outcome == api.OutcomeTimeInactive:
			inactive = append(inactive, p.ID)
		}
		if len(v.missing) > 0 {
			lacking = append(lacking, fmt.Sprintf("%s (reads %s)", p.ID, strings.Join(v.missing, ", ")))
		}
	}
	var note string
	if len(failed) > 0 {
		note = "; policies that failed to evaluate and were ignored: " + strings.Join(failed, ", ")
	}
	switch {
	case len(denied) > 0:
		d.Outcome, d.Reason = api.OutcomeDenyExplicit, "denied by policy "+strings.Join(denied, ", ")
	case len(unreadable) > 0:
		// Failing closed: a deny that cannot be read might forbid this
		// activity, so nothing but the root quorum (which needs no policy
		// evaluated) completes it.
		d.Outcome, d.Reason = api.OutcomeRequiresConsensus,
			fmt.Sprintf("undecided: deny policy %s cannot be evaluated, so the activity waits for the root quorum (%d of %d root approvals so far); "+
				"no operation deletes or replaces a policy, so until a vigil that reads it runs (the one that stored the policy, or a newer one) "+
				"the root quorum approves each such activity", strings.Join(unreadable, ", "), roots, need)
	case len(allowed) > 0 && (!d.Exhausted || denialsJudged) && len(overLimit) == 0:
		d.Outcome, d.Reason = api.OutcomeAllow, "allowed by policy "+strings.Join(allowed, ", ")
	case d.Exhausted:
		// Failing safe: what the policies not judged say could change any
		// other outcome, so the activity waits; the root quorum, which needs
		// no policy evaluated, can still approve it.
		d.Outcome, d.Reason = api.OutcomeRequiresConsensus,
			fmt.Sprintf("undecided: the policies cost more than one decision's work budget (%d cost units), "+
				"so the activity waits for the root quorum (%d of %d root approvals so far)", m.budget, roots, need)
	case len(overLimit) > 0:
		// Failing safe, as when the budget runs out: a deny not judged
		// could still win, so no allow completes the activity.
		d.Outcome, d.Reason = api.OutcomeRequiresConsensus,
			fmt.Sprintf("undecided: deny policy %s ran out of its evaluation cost limit (%d cost units) on this activity, so it could still deny, "+
				"and the activity waits for the root quorum (%d of %d root approvals so far)", strings.Join(overLimit, ", "), CostLimit, roots, need)
	case len(waiting) > 0:
		d.Outcome, d.Reason = api.OutcomeRequiresConsensus, "waiting for the consensus of policy "+strings.Join(waiting, ", ")
	case OwnCredentialChange(in):
		d.Outcome, d.OwnCredential = api.OutcomeAllow, true
		d.Reason = "allowed: a user may change their own credentials when no policy allows or denies it"
	case anyRoot:
		d.Outcome, d.Reason = api.OutcomeRequiresConsensus,
			fmt.Sprintf("waiting for the root quorum: %d of %d root approvals so far", roots, need)
	default:
		d.Outcome, d.Reason = api.OutcomeDenyImplicit, "no policy allows this activity"
	}
	if d.Outcome != api.OutcomeAllow && !d.Exhausted && len(denied) == 0 && len(waiting) == 0 && len(unreadable) == 0 && len(overLimit) == 0 {
		d.Reason += ownCredentialWithheld(in)
	}
	if len(inactive) > 0 {
		note += "; policies inactive at this time: " + strings.Join(inactive, ", ")
	}
	if len(lacking) > 0 {
		note += "; policies that do not apply because this activity has no such target or transaction: " + strings.Join(lacking, ", ")
	}
	if len(unjudged) > 0 {
		note += "; policies not evaluated because the work budget ran out: " + strings.Join(unjudged, ", ")
	}
	d.Reason += note
	return d
}

// judgeWithin judges, in order, the policies that deny (denies) or the
// others (!denies) while m's budget lasts, filling verdicts. It reports
// whether it judged all of them.
func judgeWithin(policies []Policy, verdicts []*verdict, act *activation, m *meter, denies bool) bool {
	for i, p := range policies {
		if (p.Effect == api.EffectDeny) != denies {
			continue
		}
		var v verdict
		if m.judging(act, func() error { v = p.judge(act); return v.err }) {
			return false // out of budget, before or between its expressions: not judged
		}
		verdicts[i] = &v
	}
	return true
}

// OwnCredentialChange reports whether the activity changes the requester's
// own credentials: a CREDENTIAL activity (API keys, authenticators, OAuth
// providers) whose userId is the requester, who has approved it, and which
// leaves no root quorum member without a credential that can sign (that one
// the root quorum decides: docs/policy-language.md). The real
// service's policy overview: "All users have implicit permission to change
// their own credentials, unless a policy explicitly allows or denies those
// actions", so a user can revoke a leaked key of theirs without a policy.
// Decide allows it when no policy denies, allows or waits for a consensus.
func OwnCredentialChange(in Input) bool {
	resource := in.Activity.Resource
	if resource == "" {
		resource, _, _ = ResourceAction(in.Activity.Type)
	}
	if resource != ResourceCredential || in.Requester == "" {
		return false
	}
	target, _ := in.Activity.Params["userId"].(string)
	if target != in.Requester || in.StrandsRootMember {
		return false
	}
	return slices.ContainsFunc(in.Approvers, func(a Approver) bool { return a.ID == in.Requester })
}

// ownCredentialWithheld says why the own-credentials permission was not
// counted for a CREDENTIAL activity on the credentials of one of its
// approvers, when that is what kept it from being allowed; "" otherwise.
func ownCredentialWithheld(in Input) string {
	resource := in.Activity.Resource
	if resource == "" {
		resource, _, _ = ResourceAction(in.Activity.Type)
	}
	target, _ := in.Activity.Params["userId"].(string)
	if resource != ResourceCredential || target == "" ||
		!slices.ContainsFunc(in.Approvers, func(a Approver) bool { return a.ID == target }) {
		return ""
	}
	switch {
	case in.StrandsRootMember:
		return "; the own-credentials permission does not apply: this would leave a root quorum member with no credential that can sign, so the root quorum decides"
	case in.RequesterUnknown:
		return "; the own-credentials permission is not counted: the votes shown are of a later round, so who submitted this activity is not known here (the service knows it and may allow it)"
	}
	return ""
}
