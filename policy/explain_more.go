package policy

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/vigil-console/vigil/api"
)

// ExplainBudget bounds the work of one ExplainWith beyond the decision it
// explains, over all its waiting policies, in cost units (those of
// DecideBudget): the console explains the evaluations of the activity it
// shows, and a few costly consensus expressions re-run for every candidate
// and every set of two or three of them must not freeze it. 1,000,000 units
// is about 100 ms of the costliest expressions.
const ExplainBudget = 1_000_000

// tooCostly is what a waiting policy is said to need once the explanation's
// budget ran out: true whatever the candidates could do, as it names no one.
const tooCostly = "needs more approvals (too costly to work out from whom: the explanation ran out of its work budget)"

// errCutShort stops needsMore when the explanation's budget ran out.
var errCutShort = errors.New("the explanation ran out of its work budget")

// ExplainWith is Explain, with the waiting line made concrete: for each
// policy whose consensus is not met yet, how many more approvals among
// candidates (members who have not voted) would meet it, and from whom —
// "policy 'Ops approvals' needs 1 more approval (bob or carol)". It asks the
// policy's own consensus with the extra approvers added, and names them only
// if the whole decision then comes out ALLOW (an approval that makes a deny
// apply is no way out). A decision held by a deny this vigil cannot read
// names no one: only the root quorum can complete it.
//
// Its work is bounded by ExplainBudget; see Explanation.CutShort.
func ExplainWith(d Decision, in Input, candidates []Approver) Explanation {
	return explainWith(d, in, candidates, &meter{budget: ExplainBudget})
}

func explainWith(d Decision, in Input, candidates []Approver, m *meter) Explanation {
	e := Explain(d)
	if d.Outcome != api.OutcomeRequiresConsensus || len(d.Details) == 0 || d.Exhausted || heldByUnreadable(d) || heldByOverLimit(d) {
		return e
	}
	envs, err := loadEnvs()
	if err != nil {
		return e
	}
	act, err := in.activation()
	if err != nil {
		return e
	}
	// met says whether p's consensus holds with extra approvers added to
	// in's, within m's budget (errCutShort once it is spent).
	met := func(p Policy, extra []Approver) (bool, error) {
		act.vars[varApprovers] = approverList(envs, append(slices.Clone(in.Approvers), extra...))
		var ok bool
		var err error
		if m.judging(act, func() error { ok, err = run(p.Compiled.consensusPrg, act); return err }) {
			return false, errCutShort
		}
		return err == nil && ok, nil
	}
	// allows says whether the whole decision, every policy and the root
	// quorum, comes out ALLOW with extra approvers added: an approval that
	// meets the waiting consensus but makes a deny apply is no way out.
	policies := make([]Policy, len(d.Details))
	for i, pd := range d.Details {
		policies[i] = pd.Policy
	}
	quorum := Quorum{Threshold: d.RootNeeded}
	for _, a := range d.RootApprovers {
		quorum.UserIDs = append(quorum.UserIDs, a.ID)
	}
	allows := func(extra []Approver) (bool, error) {
		next := in
		next.Approvers = append(slices.Clone(in.Approvers), extra...)
		whole := decide(policies, next, quorum, false, m)
		if whole.Exhausted {
			return false, errCutShort
		}
		return whole.Outcome == api.OutcomeAllow, nil
	}
	parts := []string{quorumSoFar(d)}
	for _, pd := range d.Details {
		if pd.Outcome != api.OutcomeRequiresConsensus {
			continue
		}
		more, err := needsMore(candidates, func(extra []Approver) (bool, error) {
			if ok, err := met(pd.Policy, extra); err != nil || !ok {
				return false, err
			}
			return allows(extra)
		})
		if err != nil {
			more, e.CutShort = tooCostly, true
		}
		parts = append(parts, "policy "+label(pd.Policy)+" "+more)
	}
	e.Why = "waiting: " + strings.Join(parts, "; or ")
	e.Work = m.used()
	return e
}

// maxCandidates bounds the members needsMore tries together (each try runs
// the consensus once per member left out).
const maxCandidates = 32

// needsMore says how many more approvals from candidates would meet a
// consensus: one (naming everyone who could give it), or a few (a set from
// which no one can be left out, found by leaving out in turn), or "needs more
// approvals" when the first maxCandidates of them do not. It stops at met's
// first error (errCutShort): an answer from part of the search could be
// false.
func needsMore(candidates []Approver, met func([]Approver) (bool, error)) (string, error) {
	var one []Approver
	for _, c := range candidates {
		ok, err := met([]Approver{c})
		if err != nil {
			return "", err
		}
		if ok {
			one = append(one, c)
		}
	}
	if len(one) > 0 {
		return "needs 1 more approval (" + nameList(one, " or ") + ")", nil
	}
	extra := slices.Clone(candidates[:min(len(candidates), maxCandidates)])
	ok, err := met(extra)
	if err != nil {
		return "", err
	}
	if !ok {
		// Not met with everyone: a consensus that does not only grow with
		// approvers (an exact count, everyone tagged) may be met by a few.
		few, err := smallestMeeting(candidates, met)
		if err != nil {
			return "", err
		}
		if few != nil {
			return fmt.Sprintf("needs %d more approvals (e.g. %s)", len(few), names(few)), nil
		}
		return "needs more approvals to meet its consensus", nil
	}
	// Leave out whoever the consensus is met without: those left all count.
	for i := 0; i < len(extra); {
		without := slices.Delete(slices.Clone(extra), i, i+1)
		ok, err := met(without)
		if err != nil {
			return "", err
		}
		if ok {
			extra = without
		} else {
			i++
		}
	}
	return fmt.Sprintf("needs %d more approvals (e.g. %s)", len(extra), names(extra)), nil
}

// smallestMeeting tries the sets of two and three of the first maxSearched
// candidates, smallest first, for a consensus that all of them together do
// not meet; nil when none does.
func smallestMeeting(candidates []Approver, met func([]Approver) (bool, error)) ([]Approver, error) {
	c := candidates[:min(len(candidates), maxSearched)]
	var sets [][]Approver
	for i := range c {
		for j := i + 1; j < len(c); j++ {
			sets = append(sets, []Approver{c[i], c[j]})
		}
	}
	for i := range c {
		for j := i + 1; j < len(c); j++ {
			for k := j + 1; k < len(c); k++ {
				sets = append(sets, []Approver{c[i], c[j], c[k]})
			}
		}
	}
	for _, s := range sets {
		ok, err := met(s)
		if err != nil || ok {
			return s, err
		}
	}
	return nil, nil
}

// maxSearched bounds smallestMeeting: the sets of up to three of 12
// candidates are 286 evaluations of the consensus.
const maxSearched = 12
