package server

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
)

// evaluation is one run of the policy engine over an activity, with what is
// needed to ask whether consensus is still reachable.
type evaluation struct {
	decision  policy.Decision
	policies  []policy.Policy
	input     policy.Input
	quorum    policy.Quorum
	rootOnly  bool
	potential []policy.Approver // users who have not voted and may still approve
	reachWork uint64            // the search's work budget (Server.reachWork)
}

// reachable is policy.Reachable, bounded by the service's reach budget
// (policy.ReachBudget, or Config.PolicyWork): a search cut short answers
// reachable, so the activity keeps waiting.
func (e *evaluation) reachable() policy.Reach {
	return policy.ReachableWithin(e.policies, e.input, e.quorum, e.rootOnly, e.potential, e.reachWork)
}

// evaluate runs the policies over a as of now, the instant stored with the
// evaluation (the vote's time), so that replaying it there gives the same.
// vs, read at that same instant, says who may still vote: the request's own
// value, so that what it already worked out (a clock-reading policy's
// consensus question) is not worked out again.
func (s *Server) evaluate(ctx context.Context, q querier, o *org, vs *voters, a *activity, now time.Time) (*evaluation, error) {
	op, gen, err := s.orgPolicies(ctx, q, o)
	if err != nil {
		return nil, err
	}
	users, pols := op.users, op.policies
	_, params := a.Intent.Params()
	// The credential recorded with each vote, not the one the console finds
	// by public key: it stays right when that key is deleted later.
	ballots := make([]policy.Ballot, len(a.Votes))
	voted := map[string]bool{}
	for i, v := range a.Votes {
		ballots[i] = policy.Ballot{Vote: v.Vote, Credential: v.cast}
		voted[v.Vote.UserID] = true
	}
	ev := &evaluation{
		policies:  pols,
		quorum:    policy.Quorum{Threshold: o.Threshold, UserIDs: o.RootIDs},
		rootOnly:  rootOnly(a.Type),
		reachWork: s.reachWork,
		// The console's simulator and explanations build their input with the
		// same function, from the records the service returns.
		input: policy.InputFor(a.Type, params, ballots, users, now),
	}
	// The submitter as stored, not the first ballot: once a round ends, the
	// first ballot counted is whoever voted first in the next one.
	ev.input.Requester = a.RequesterID
	if ev.input.StrandsRootMember, err = s.strandsRootMember(ctx, q, o, a, now); err != nil {
		return nil, err
	}
	if !vs.loaded {
		// Nothing asked yet (a root voter, a new activity): it has no
		// answers to keep, and the policies are those just loaded.
		*vs = *s.votersWith(q, o, op, gen, vs.now)
	}
	for _, id := range op.order {
		if voted[id] {
			continue
		}
		may, err := vs.mayVote(ctx, a, id)
		if err != nil {
			return nil, err
		}
		if may {
			ev.potential = append(ev.potential, users[id])
		}
	}
	ev.decision = policy.DecideWithin(ev.policies, ev.input, ev.quorum, ev.rootOnly, s.decideWork)
	return ev, nil
}

// loadPolicyUsers loads every user of the organization with their tag ids,
// in the order list_users and get_user give them (userTagOrder): the
// console predicts decisions from those, so a policy reading user.tags[i]
// must see the same tags at the same index here.
func loadPolicyUsers(ctx context.Context, q querier, o *org) (map[string]policy.Approver, error) {
	rows, err := q.QueryContext(ctx, `SELECT u.id, u.name, u.email, u.seq, COALESCE(m.tag_id, '')
		FROM users u LEFT JOIN user_tag_members m ON m.user_id = u.id LEFT JOIN user_tags t ON t.id = m.tag_id
		WHERE u.org_id = ? ORDER BY u.seq, `+userTagOrder, o.ID)
	if err != nil {
		return nil, fmt.Errorf("load users: %w", err)
	}
	defer rows.Close()
	users := map[string]policy.Approver{}
	for rows.Next() {
		var id, name, email, tag string
		var seq int64
		if err := rows.Scan(&id, &name, &email, &seq, &tag); err != nil {
			return nil, fmt.Errorf("load users: %w", err)
		}
		u, ok := users[id]
		if !ok {
			u = policy.Approver{ID: id, Name: name, Email: email, Tags: []string{}, Root: o.isRoot(id)}
		}
		if tag != "" {
			u.Tags = append(u.Tags, tag)
		}
		users[id] = u
	}
	return users, rows.Err()
}

// userOrder gives a stable order (by id) for the potential approvers.
func userOrder(users map[string]policy.Approver) []string {
	ids := make([]string, 0, len(users))
	for id := range users {
		ids = append(ids, id)
	}
	sortStrings(ids)
	return ids
}

// loadCompiledPolicies loads the organization's policies in creation order,
// compiled (compilations are cached by expression text, see policy.CompileCache).
func (s *Server) loadCompiledPolicies(ctx context.Context, q querier, orgID string) ([]policy.Policy, error) {
	rows, err := q.QueryContext(ctx, `SELECT id, effect, condition, consensus, time_expr FROM policies WHERE org_id = ? ORDER BY seq`, orgID)
	if err != nil {
		return nil, fmt.Errorf("load policies: %w", err)
	}
	defer rows.Close()
	var out []policy.Policy
	for rows.Next() {
		var id, effect string
		var src policy.Source
		if err := rows.Scan(&id, &effect, &src.Condition, &src.Consensus, &src.Time); err != nil {
			return nil, fmt.Errorf("load policies: %w", err)
		}
		c, err := s.compiled.Compile(src)
		if err != nil {
			// The cache compiles as CompileStored, which skips the checks
			// that only lint submissions, so a stored policy fails here
			// only in a dialect this vigil cannot run (a newer vigil
			// stored it). Safety fails closed: a deny is kept, and
			// policy.Decide makes what it could deny wait for the root
			// quorum; an allow left out can only allow less.
			s.log.Warn("stored policy does not compile", "policyId", id, "effect", effect, "err", err)
			if effect == api.EffectDeny {
				out = append(out, policy.Policy{ID: id, Effect: effect, CompileErr: err})
			}
			continue
		}
		out = append(out, policy.Policy{ID: id, Effect: effect, Compiled: c})
	}
	return out, rows.Err()
}

func (s *Server) compile(condition, consensus string) (*policy.Compiled, error) {
	return s.compiled.Compile(policy.Source{Condition: condition, Consensus: consensus})
}

func sortStrings(s []string) { slices.Sort(s) }
