package screens

import "github.com/vigil-console/vigil/api"

// notReturnedEvals are the recent activities' last evaluations whose vote a
// read of the activity made after them did not hold: the service no longer
// returns it (an earlier 24-hour round's), and votes do not come back, so a
// later reload need not read the activity again for it (loadRecent). Keyed
// by activity, evaluation and vote id: a service's ids are not trusted to
// be unique (across activities, or an evaluation id given again to a new
// vote's evaluation).
type notReturnedEvals map[notReturnedKey]bool

type notReturnedKey struct{ activity, evaluation, vote string }

// has reports whether e of activity id is known not returned; never for an
// evaluation without an id (it cannot be told from another).
func (s notReturnedEvals) has(id string, e api.PolicyEvaluation) bool {
	return e.ID != "" && s[notReturnedKey{id, e.ID, e.VoteID}]
}

// notReturnedOf are the last evaluations of recent known not returned: what
// the next reload may skip. Rebuilt at each load, it holds no more than the
// recent list does.
func notReturnedOf(recent []recentActivity) notReturnedEvals {
	s := notReturnedEvals{}
	for _, ra := range recent {
		if ra.notReturned && len(ra.evals) > 0 {
			if last := ra.evals[len(ra.evals)-1]; last.ID != "" {
				s[notReturnedKey{ra.act.ID, last.ID, last.VoteID}] = true
			}
		}
	}
	return s
}
