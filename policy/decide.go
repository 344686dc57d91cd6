package policy

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/interpreter"

	"github.com/vigil-console/vigil/api"
)

// Policy is one policy of an organization, compiled.
type Policy struct {
	ID       string
	Effect   string // api.EffectAllow or api.EffectDeny
	Compiled *Compiled
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
}

// Evaluate runs the condition and, when the condition holds, the consensus.
// An empty condition or consensus counts as true. consensus is false whenever
// condition is.
func (c *Compiled) Evaluate(in Input) (condition, consensus bool, err error) {
	act, err := in.activation()
	if err != nil {
		return false, false, err
	}
	return c.evaluate(act)
}

func (c *Compiled) evaluate(act interpreter.Activation) (condition, consensus bool, err error) {
	if condition, err = run(c.conditionPrg, act); err != nil {
		return false, false, fmt.Errorf("%s: %w", FieldCondition, err)
	}
	if !condition {
		return false, false, nil
	}
	if consensus, err = run(c.consensusPrg, act); err != nil {
		return true, false, fmt.Errorf("%s: %w", FieldConsensus, err)
	}
	return true, consensus, nil
}

func run(prg cel.Program, act interpreter.Activation) (bool, error) {
	if prg == nil {
		return true, nil
	}
	out, _, err := prg.Eval(act)
	if err != nil {
		if strings.Contains(err.Error(), "cost limit exceeded") {
			return false, fmt.Errorf("evaluation cost limit exceeded (%d): the expression does too much work; simplify it", CostLimit)
		}
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
	err     error
}

// judge is one policy's own verdict:
//   - OUTCOME_ERROR: an expression failed to evaluate, or the policy is malformed;
//   - OUTCOME_DENY_IMPLICIT: it does not apply (condition false, or a deny
//     whose consensus is not met);
//   - OUTCOME_DENY_EXPLICIT: an applicable deny;
//   - OUTCOME_ALLOW: an applicable allow whose consensus is met;
//   - OUTCOME_REQUIRES_CONSENSUS: an allow whose condition holds but whose
//     consensus is not met yet.
func (p Policy) judge(act interpreter.Activation) verdict {
	if p.Compiled == nil {
		return verdict{api.OutcomeError, errors.New("policy was not compiled")}
	}
	if p.Effect != api.EffectAllow && p.Effect != api.EffectDeny {
		return verdict{api.OutcomeError, fmt.Errorf("unknown effect %q", p.Effect)}
	}
	cond, cons, err := p.Compiled.evaluate(act)
	switch {
	case err != nil:
		return verdict{api.OutcomeError, err}
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

// rootApprovals counts the distinct approvers who are root quorum members: an
// approver is one if marked Root or listed in the quorum.
func rootApprovals(approvers []Approver, q Quorum) (count int, any bool) {
	seen := make(map[string]bool, len(approvers))
	for _, a := range approvers {
		if seen[a.ID] {
			continue
		}
		seen[a.ID] = true
		if a.Root || slices.Contains(q.UserIDs, a.ID) {
			count++
		}
	}
	return count, count > 0
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
//  5. otherwise DENY_IMPLICIT.
//
// A policy whose evaluation fails is OUTCOME_ERROR and neither allows nor
// denies. rootOnly (set_organization_feature) skips steps 2–4: only the root
// quorum completes such an activity.
func Decide(policies []Policy, in Input, quorum Quorum, rootOnly bool) Decision {
	roots, anyRoot := rootApprovals(in.Approvers, quorum)
	need := quorum.threshold()
	if roots >= need {
		return Decision{Outcome: api.OutcomeAllow,
			Reason: fmt.Sprintf("approved by the root quorum (%d of %d root members needed)", roots, need)}
	}
	if rootOnly {
		if anyRoot {
			return Decision{Outcome: api.OutcomeRequiresConsensus,
				Reason: fmt.Sprintf("only the root quorum can approve this activity: %d of %d root approvals so far", roots, need)}
		}
		return Decision{Outcome: api.OutcomeDenyImplicit,
			Reason: "only the root quorum can approve this activity, and no root member has approved it"}
	}

	act, err := in.activation()
	if err != nil {
		return Decision{Outcome: api.OutcomeError, Reason: fmt.Sprintf("cannot prepare the evaluation: %v", err)}
	}
	d := Decision{Policies: make([]api.PolicyOutcome, 0, len(policies))}
	var denied, allowed, waiting, failed []string
	for _, p := range policies {
		v := p.judge(act)
		d.Policies = append(d.Policies, api.PolicyOutcome{PolicyID: p.ID, Outcome: v.outcome})
		switch v.outcome {
		case api.OutcomeDenyExplicit:
			denied = append(denied, p.ID)
		case api.OutcomeAllow:
			allowed = append(allowed, p.ID)
		case api.OutcomeRequiresConsensus:
			waiting = append(waiting, p.ID)
		case api.OutcomeError:
			failed = append(failed, fmt.Sprintf("%s (%v)", p.ID, v.err))
		}
	}
	var note string
	if len(failed) > 0 {
		note = "; policies that failed to evaluate and were ignored: " + strings.Join(failed, ", ")
	}
	switch {
	case len(denied) > 0:
		d.Outcome, d.Reason = api.OutcomeDenyExplicit, "denied by policy "+strings.Join(denied, ", ")
	case len(allowed) > 0:
		d.Outcome, d.Reason = api.OutcomeAllow, "allowed by policy "+strings.Join(allowed, ", ")
	case len(waiting) > 0:
		d.Outcome, d.Reason = api.OutcomeRequiresConsensus, "waiting for the consensus of policy "+strings.Join(waiting, ", ")
	case anyRoot:
		d.Outcome, d.Reason = api.OutcomeRequiresConsensus,
			fmt.Sprintf("waiting for the root quorum: %d of %d root approvals so far", roots, need)
	default:
		d.Outcome, d.Reason = api.OutcomeDenyImplicit, "no policy allows this activity"
	}
	d.Reason += note
	return d
}

// Reachable reports whether the activity could still be allowed if some of
// potentialApprovers (the users who have not voted yet) approved as well. The
// server uses it to decide that a rejection made consensus unreachable.
//
// It tries the approvers as they are, then adds the potential approvers one by
// one in order, skipping any whose approval would trigger an explicit deny,
// then adds all of them. It only answers true for a set of approvers that
// Decide actually allows, so it is exact for policies whose consensus only
// becomes easier with more approvers (all the documented forms) and may
// answer false for contrived ones where some other subset would do.
func Reachable(policies []Policy, in Input, quorum Quorum, rootOnly bool, potentialApprovers []Approver) bool {
	allows := func(approvers []Approver) (allow, deny bool) {
		next := in
		next.Approvers = approvers
		out := Decide(policies, next, quorum, rootOnly).Outcome
		return out == api.OutcomeAllow, out == api.OutcomeDenyExplicit
	}
	current := slices.Clone(in.Approvers)
	if ok, _ := allows(current); ok {
		return true
	}
	if rootOnly {
		// Only root members count; policies are never consulted.
		all := append(slices.Clone(current), potentialApprovers...)
		ok, _ := allows(all)
		return ok
	}
	greedy := current
	for _, p := range potentialApprovers {
		candidate := append(slices.Clone(greedy), p)
		ok, deny := allows(candidate)
		if ok {
			return true
		}
		if !deny {
			greedy = candidate
		}
	}
	ok, _ := allows(append(slices.Clone(current), potentialApprovers...))
	return ok
}
