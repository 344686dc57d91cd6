package screens

import "github.com/vigil-console/vigil/api"

// orgLoad marks one load of the organization's members, quorum and
// policies: a cache keyed by it is dropped when they are loaded again. (It
// has a field so that two loads' marks are distinct pointers.)
type orgLoad struct{ _ byte }

// explanations remembers the explanation of each stored evaluation of one
// version of an activity: explaining re-runs the policies (within
// policy.DecideBudget and policy.ExplainBudget, up to a few hundred ms of
// work each), and the detail is rendered again at every fetch, tick and
// keystroke. An explanation depends on the organization's load, the
// activity's votes and status, and the evaluation, which is never changed
// once stored: those are the key.
type explanations struct {
	key  explanationsKey
	byID map[string]explained
	// explain is explainEvaluation; tests count its calls through it.
	explain func(evaluationContext, api.Activity, api.PolicyEvaluation) explained
}

// explanationsKey is what the remembered explanations hold for.
type explanationsKey struct {
	org                *orgLoad
	activity, status   string
	votes              int
	lastVote, lastUser string
}

func keyOf(ec evaluationContext, a api.Activity) explanationsKey {
	k := explanationsKey{org: ec.load, activity: a.ID, status: a.Status, votes: len(a.Votes)}
	if n := len(a.Votes); n > 0 {
		k.lastVote, k.lastUser = a.Votes[n-1].ID, a.Votes[n-1].UserID
	}
	return k
}

// of is the explanation of evaluation e of activity a, computed once per
// key.
func (x *explanations) of(ec evaluationContext, a api.Activity, e api.PolicyEvaluation) explained {
	if k := keyOf(ec, a); x.byID == nil || x.key != k {
		x.key, x.byID = k, map[string]explained{}
	}
	if ex, ok := x.byID[e.ID]; ok && e.ID != "" {
		return ex
	}
	explain := x.explain
	if explain == nil {
		explain = explainEvaluation
	}
	ex := explain(ec, a, e)
	if e.ID != "" {
		x.byID[e.ID] = ex
	}
	return ex
}
