package server

import (
	"context"
	"time"

	"github.com/vigil-console/vigil/policy"
)

// voters decides who may vote on an organization's activities:
//
//   - root quorum members, on every activity;
//   - other users, on an activity that is not root-only
//     (set_organization_feature) when an EFFECT_ALLOW policy whose condition
//     matches the activity has a consensus expression: that consensus is what
//     asks for their approval (for example "two approvers tagged ops").
//
// Everyone else's approval could not change the outcome, so they are not
// offered the vote (canApprove/canReject false) and a vote from them is refused.
// Policies are loaded once per voters value, i.e. once per request.
type voters struct {
	s        *Server
	o        *org
	q        querier
	policies []policy.Policy
	gen      uint64 // policy cache generation the policies are current for
	// readsClock: a policy's time expression makes the answers change with
	// the clock, so they are not cached.
	readsClock bool
	loaded     bool
	// now is the request's one reading of the clock: time expressions see
	// the instant the request stores (a vote's time), not a later one.
	now time.Time
	// answers is awaitsPolicyConsensus's answer by activity id, for this
	// request and its instant: when readsClock keeps it out of the server's
	// cache, it is still worked out once per activity, not once per member
	// asked about (evaluate asks for each member who has not voted).
	answers map[string]bool
}

func (s *Server) voters(q querier, o *org, now time.Time) *voters {
	return &voters{s: s, o: o, q: q, now: now}
}

// votersWith is voters with the organization's policies already loaded
// (orgPolicies, at generation gen).
func (s *Server) votersWith(q querier, o *org, op *orgPolicies, gen uint64, now time.Time) *voters {
	return &voters{s: s, o: o, q: q, policies: op.policies, gen: gen, readsClock: op.readsClock, loaded: true, now: now}
}

func (v *voters) mayVote(ctx context.Context, a *activity, userID string) (bool, error) {
	if v.o.isRoot(userID) {
		return true, nil
	}
	if rootOnly(a.Type) {
		return false, nil
	}
	return v.awaitsPolicyConsensus(ctx, a)
}

// awaitsPolicyConsensus reports whether a matching allow policy asks for a
// consensus of approvers. Conditions see the activity, not the approvers, so
// the answer is the same for every user.
//
// The answer is cached per activity (Server.awaitsConsensus), unless a
// policy's time expression makes it change with the clock; within one
// request (one instant) it is always remembered (answers).
func (v *voters) awaitsPolicyConsensus(ctx context.Context, a *activity) (bool, error) {
	if !v.loaded {
		op, gen, err := v.s.orgPolicies(ctx, v.q, v.o)
		if err != nil {
			return false, err
		}
		*v = *v.s.votersWith(v.q, v.o, op, gen, v.now)
	}
	if awaits, ok := v.answers[a.ID]; ok {
		return awaits, nil
	}
	awaits, err := v.s.awaitsConsensus(v.q, a, v.gen, v.readsClock, func() (bool, error) { return v.computeConsensus(a), nil })
	if err != nil {
		return false, err
	}
	if v.answers == nil {
		v.answers = make(map[string]bool)
	}
	v.answers[a.ID] = awaits
	return awaits, nil
}

// computeConsensus is awaitsPolicyConsensus's answer, bounded as a decision
// is (policy.DecideBudget, or Config.PolicyWork). When the budget runs out first, the members are
// offered the vote: a vote that turns out not to count changes nothing (the
// decision is its own, budgeted), while refusing one the policies ask for
// would leave the activity waiting for votes nobody may cast.
func (v *voters) computeConsensus(a *activity) bool {
	_, params := a.Intent.Params()
	in := policy.Input{Activity: policy.ActivityFor(a.Type, params), Now: v.now}
	awaits, exhausted := policy.AwaitsConsensusWithin(v.policies, in, v.s.decideWork)
	if exhausted {
		v.s.log.Warn("who may vote: the policies cost more than one decision's work budget; members are offered the vote",
			"activityId", a.ID, "budget", v.s.decideWork)
		return true
	}
	return awaits
}
