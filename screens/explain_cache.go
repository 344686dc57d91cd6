package screens

import (
	"encoding/json"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
)

// orgLoad marks one load of the organization's members, quorum and
// policies: a cache keyed by it is dropped when they are loaded again. (It
// has a field so that two loads' marks are distinct pointers.)
type orgLoad struct{ _ byte }

// explanations remembers the explanation of each stored evaluation of one
// version of an activity. Explaining re-runs the policies (within
// policy.DecideBudget and policy.ExplainBudget, up to a few hundred ms of
// work each), so it runs in a command (explainCmd), never in Update or View:
// the detail says "explaining…" until the evaluation's explainedMsg arrives.
// An explanation depends on the organization's load, the activity's votes
// and status, and the evaluation, which is never changed once stored: those
// are the key.
type explanations struct {
	key  explanationsKey
	byID map[string]explained
	// asked are the evaluations being explained for key: a render or a key
	// press meanwhile does not explain them again.
	asked map[string]bool
	// explain is explainEvaluation; tests count or mark its calls through it.
	explain func(evaluationContext, api.Activity, api.PolicyEvaluation) explained
}

// explanationsKey is what the remembered explanations hold for: an activity
// and a version of it.
type explanationsKey struct {
	activity string
	version  activityVersion
}

// activityVersion is what an explanation of an activity's evaluation
// depends on besides the evaluation: the organization's load, the
// activity's status and its votes.
type activityVersion struct {
	org                *orgLoad
	status             string
	votes              int
	lastVote, lastUser string
}

func keyOf(ec evaluationContext, a api.Activity) explanationsKey {
	v := activityVersion{org: ec.load, status: a.Status, votes: len(a.Votes)}
	if n := len(a.Votes); n > 0 {
		v.lastVote, v.lastUser = a.Votes[n-1].ID, a.Votes[n-1].UserID
	}
	return explanationsKey{activity: a.ID, version: v}
}

// evaluationKey names an evaluation in the cache: its id, or, from a
// service that sent none, its content.
func evaluationKey(e api.PolicyEvaluation) string {
	if e.ID != "" {
		return e.ID
	}
	out, _ := json.Marshal(e)
	return "\x00" + string(out)
}

// explainedMsg carries the explanation of one stored evaluation, computed
// for one version of an activity (explainCmd).
type explainedMsg struct {
	activity   string
	version    activityVersion
	evaluation string // its evaluationKey
	explained  explained
}

// at makes k the version remembered, forgetting another's explanations.
func (x *explanations) at(k explanationsKey) {
	if x.byID == nil || x.key != k {
		x.key, x.byID, x.asked = k, map[string]explained{}, map[string]bool{}
	}
}

// of is the explanation of evaluation e of activity a, once its
// explainedMsg has arrived (ok false before).
func (x *explanations) of(ec evaluationContext, a api.Activity, e api.PolicyEvaluation) (ex explained, ok bool) {
	x.at(keyOf(ec, a))
	ex, ok = x.byID[evaluationKey(e)]
	return ex, ok
}

// explainCmd explains, one after the other, the evaluations of a neither
// explained nor being explained for this version of it; nil when there are
// none. Each answers with its own explainedMsg, so the first shows without
// waiting for the last.
func (x *explanations) explainCmd(ec evaluationContext, a api.Activity, evals []api.PolicyEvaluation) tea.Cmd {
	x.at(keyOf(ec, a))
	explain := x.explain
	if explain == nil {
		explain = explainEvaluation
	}
	var cmds []tea.Cmd
	for _, e := range evals {
		k := evaluationKey(e)
		if _, done := x.byID[k]; done || x.asked[k] {
			continue
		}
		x.asked[k] = true
		key := x.key
		cmds = append(cmds, func() tea.Msg {
			return explainedMsg{activity: key.activity, version: key.version, evaluation: k, explained: explain(ec, a, e)}
		})
	}
	return tea.Sequence(cmds...)
}

// take remembers the explanation msg carries when it is of the activity and
// version remembered, and reports whether it did: a reply for another
// activity, or for an older version (a vote came meanwhile), is dropped.
func (x *explanations) take(msg explainedMsg) bool {
	if x.byID == nil || x.key != (explanationsKey{activity: msg.activity, version: msg.version}) {
		return false
	}
	x.byID[msg.evaluation] = msg.explained
	delete(x.asked, msg.evaluation)
	return true
}
